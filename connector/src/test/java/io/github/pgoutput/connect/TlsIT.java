package io.github.pgoutput.connect;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.pgoutput.testing.kafka.ConnectWorkerCluster;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import io.github.pgoutput.testing.PostgresCluster;
import io.github.pgoutput.testing.PostgresExtension;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * TLS for real: a PostgreSQL server with {@code ssl=on}, a server certificate for {@code localhost} signed by a test
 * CA, and {@code hostssl ... cert} client-certificate authentication for the role {@code tls_user} (plain connections
 * of that role are rejected). {@code verify-full} with a client certificate and an encrypted key validates and
 * streams through a real worker; a wrong CA, a host name the certificate does not name, a missing or wrong key
 * password, an AES-encrypted key and a missing client certificate are each reported on the key to fix. The
 * certificates are made with {@code openssl} for each run. One PostgreSQL version: the highest {@code pg.versions}
 * selects (TLS does not differ between them).
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class TlsIT {

    private static final String ROLE = "tls_user";
    private static final String KEY_PASSWORD = "k3y-pass";
    private static final Duration WAIT = Duration.ofSeconds(90);

    @RegisterExtension
    static final ConnectWorkerCluster connect = ConnectWorkerCluster.shared();

    private static Path certificates;
    private static PostgresCluster server;

    @BeforeAll
    static void startServerWithTls() throws IOException {
        certificates = Files.createTempDirectory("kcpg-tls-");
        makeCertificates(certificates);
        List<Integer> versions = PostgresExtension.selectedVersions();
        server = PostgresCluster.start(versions.get(versions.size() - 1), Map.of());
        server.installFile(certificates.resolve("server.crt"), "server.crt");
        server.installFile(certificates.resolve("server.key"), "server.key");
        server.installFile(certificates.resolve("ca.crt"), "ca.crt");
        Path hba = server.dataDirectory().resolve("pg_hba.conf");
        // Read top-down: the role authenticates by certificate over TLS only, ahead of the trust lines initdb wrote.
        String lines = "hostssl all " + ROLE + " 127.0.0.1/32 cert\nhostssl replication " + ROLE + " 127.0.0.1/32 cert\n"
                + "host all " + ROLE + " 127.0.0.1/32 reject\nhost replication " + ROLE + " 127.0.0.1/32 reject\n";
        Files.writeString(hba, lines + Files.readString(hba, StandardCharsets.UTF_8), StandardCharsets.UTF_8);
        server.execute("postgres", "ALTER SYSTEM SET ssl = on", "ALTER SYSTEM SET ssl_cert_file = 'server.crt'",
                "ALTER SYSTEM SET ssl_key_file = 'server.key'", "ALTER SYSTEM SET ssl_ca_file = 'ca.crt'",
                "SELECT pg_reload_conf()");
        ConnectWorkerCluster.awaitCondition(Duration.ofSeconds(10), "ssl on after the reload", () -> {
            try (var sql = server.connect("postgres"); var st = sql.createStatement(); var rs = st.executeQuery("SHOW ssl")) {
                return rs.next() && rs.getString(1).equals("on");
            } catch (java.sql.SQLException e) {
                return false;
            }
        });
        server.execute("postgres", "CREATE ROLE " + ROLE + " LOGIN REPLICATION",
                "CREATE TABLE public.items (id int PRIMARY KEY, note text)", "GRANT SELECT ON public.items TO " + ROLE,
                "CREATE PUBLICATION tls_pub FOR ALL TABLES");
    }

    @AfterAll
    static void stopServer() throws IOException {
        if (server != null) {
            server.close();
        }
        if (certificates != null) {
            try (var files = Files.walk(certificates)) {
                for (Path file : files.sorted(java.util.Comparator.reverseOrder()).toList()) {
                    Files.deleteIfExists(file);
                }
            }
        }
    }

    /** CA, a server certificate for localhost only (no IP address), a client certificate for the role, keys. */
    private static void makeCertificates(Path dir) {
        openssl(dir, "req", "-x509", "-new", "-nodes", "-newkey", "rsa:2048", "-keyout", "ca.key", "-out", "ca.crt",
                "-days", "2", "-subj", "/CN=kcpg-test-ca");
        openssl(dir, "req", "-x509", "-new", "-nodes", "-newkey", "rsa:2048", "-keyout", "other-ca.key", "-out",
                "other-ca.crt", "-days", "2", "-subj", "/CN=kcpg-other-ca");
        write(dir.resolve("server.ext"), "subjectAltName=DNS:localhost\nbasicConstraints=CA:FALSE\n");
        openssl(dir, "req", "-new", "-nodes", "-newkey", "rsa:2048", "-keyout", "server.key", "-out", "server.csr",
                "-subj", "/CN=localhost");
        openssl(dir, "x509", "-req", "-in", "server.csr", "-CA", "ca.crt", "-CAkey", "ca.key", "-CAcreateserial",
                "-out", "server.crt", "-days", "2", "-extfile", "server.ext");
        write(dir.resolve("client.ext"), "basicConstraints=CA:FALSE\n");
        openssl(dir, "req", "-new", "-nodes", "-newkey", "rsa:2048", "-keyout", "client.key", "-out", "client.csr",
                "-subj", "/CN=" + ROLE);
        openssl(dir, "x509", "-req", "-in", "client.csr", "-CA", "ca.crt", "-CAkey", "ca.key", "-CAcreateserial",
                "-out", "client.crt", "-days", "2", "-extfile", "client.ext");
        // pgjdbc reads an encrypted key as PKCS-8 DER; Java 17 decrypts the PKCS#12 PBEs, not PBES2 (AES).
        openssl(dir, "pkcs8", "-topk8", "-inform", "PEM", "-outform", "DER", "-in", "client.key", "-out", "client.pk8",
                "-v1", "PBE-SHA1-3DES", "-passout", "pass:" + KEY_PASSWORD);
        openssl(dir, "pkcs8", "-topk8", "-inform", "PEM", "-outform", "DER", "-in", "client.key", "-out",
                "client-aes.pk8", "-v2", "aes-256-cbc", "-passout", "pass:" + KEY_PASSWORD);
    }

    private static void openssl(Path dir, String... arguments) {
        List<String> command = new ArrayList<>(List.of("openssl"));
        command.addAll(List.of(arguments));
        try {
            Process process = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true).start();
            process.getOutputStream().close();
            String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!process.waitFor(60, TimeUnit.SECONDS) || process.exitValue() != 0) {
                throw new IllegalStateException(String.join(" ", command) + " failed:\n" + output);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private static void write(Path file, String text) {
        try {
            Files.writeString(file, text, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static Map<String, String> config(String name) {
        Map<String, String> config = new HashMap<>();
        config.put("name", name);
        config.put("connector.class", PgOutputSourceConnector.class.getName());
        config.put("tasks.max", "1");
        config.put("database.hostname", "localhost");
        config.put("database.port", Integer.toString(server.port()));
        config.put("database.user", ROLE);
        config.put("database.dbname", "postgres");
        config.put("database.sslmode", "verify-full");
        config.put("database.sslrootcert", certificates.resolve("ca.crt").toString());
        config.put("database.sslcert", certificates.resolve("client.crt").toString());
        config.put("database.sslkey", certificates.resolve("client.pk8").toString());
        config.put("database.sslpassword", KEY_PASSWORD);
        config.put("slot.name", name + "_slot");
        config.put("publication.name", "tls_pub");
        config.put("publication.autocreate.mode", "disabled");
        config.put("topic.prefix", name);
        config.put("snapshot.mode", "no_data");
        config.put("key.converter", "org.apache.kafka.connect.json.JsonConverter");
        config.put("key.converter.schemas.enable", "false");
        config.put("value.converter", "org.apache.kafka.connect.json.JsonConverter");
        config.put("value.converter.schemas.enable", "false");
        config.put("topic.creation.default.replication.factor", "1");
        config.put("topic.creation.default.partitions", "1");
        return config;
    }

    private static Map<String, List<String>> errors(Map<String, String> config) {
        return connect.validationErrors(PgOutputSourceConnector.class.getName(), config);
    }

    @Test
    void verifyFullWithAClientCertificateAndAnEncryptedKeyValidatesAndStreams() {
        Map<String, String> config = config("tls");
        assertThat(errors(config)).isEmpty();

        connect.configureConnector("tls", config);
        try {
            connect.awaitRunning("tls", 1, WAIT);
            ConnectWorkerCluster.awaitCondition(WAIT, "slot tls_slot active", () -> {
                try (var sql = server.connect("postgres"); var st = sql.createStatement();
                     var rs = st.executeQuery("SELECT s.ssl FROM pg_replication_slots r JOIN pg_stat_ssl s ON s.pid = r.active_pid"
                             + " WHERE r.slot_name = 'tls_slot'")) {
                    return rs.next() && rs.getBoolean(1);
                } catch (java.sql.SQLException e) {
                    return false;
                }
            });
            server.execute("postgres", "INSERT INTO public.items VALUES (1, 'over-tls')");

            assertThat(connect.awaitRecords("tls.public.items", 1, WAIT)).map(ConnectWorkerCluster::valueText)
                    .singleElement().asString().contains("over-tls");
        } finally {
            connect.deleteConnector("tls");
        }
    }

    @Test
    void aServerCertificateSignedByAnotherCaIsReportedOnTheRootCertificate() {
        Map<String, String> config = config("tls_ca");
        config.put("database.sslrootcert", certificates.resolve("other-ca.crt").toString());

        Map<String, List<String>> errors = errors(config);

        assertThat(errors).containsOnlyKeys("database.sslrootcert");
        assertThat(errors.get("database.sslrootcert")).singleElement().asString()
                .contains("not signed by a CA in database.sslrootcert");
    }

    @Test
    void aHostNameTheCertificateDoesNotNameIsReportedOnTheSslMode() {
        Map<String, String> config = config("tls_host");
        config.put("database.hostname", "127.0.0.1");

        Map<String, List<String>> errors = errors(config);

        assertThat(errors).containsOnlyKeys("database.sslmode");
        assertThat(errors.get("database.sslmode")).singleElement().asString().contains("127.0.0.1")
                .contains("names the host connected to").contains("database.sslmode=verify-ca");
    }

    @Test
    void anEncryptedKeyWithoutItsPasswordOrWithAWrongOneIsReportedOnTheKeyPassword() {
        Map<String, String> missing = config("tls_nopass");
        missing.remove("database.sslpassword");
        Map<String, String> wrong = config("tls_wrongpass");
        wrong.put("database.sslpassword", "not-the-password");

        Map<String, List<String>> missingErrors = errors(missing);
        Map<String, List<String>> wrongErrors = errors(wrong);

        assertThat(missingErrors).containsOnlyKeys("database.sslpassword");
        assertThat(wrongErrors).containsOnlyKeys("database.sslpassword");
        assertThat(wrongErrors.get("database.sslpassword")).singleElement().asString()
                .contains("database.sslpassword does not decrypt it").doesNotContain("not-the-password");
    }

    @Test
    void anAesEncryptedKeyIsReportedOnTheKeyWithHowToReEncryptIt() {
        Map<String, String> config = config("tls_aes");
        config.put("database.sslkey", certificates.resolve("client-aes.pk8").toString());

        Map<String, List<String>> errors = errors(config);

        assertThat(errors).containsOnlyKeys("database.sslkey");
        assertThat(errors.get("database.sslkey")).singleElement().asString().contains("PBE-SHA1-3DES");
    }

    @Test
    void aMissingClientCertificateIsReportedOnTheClientCertificate() {
        Map<String, String> config = config("tls_nocert");
        config.remove("database.sslcert");
        config.remove("database.sslkey");
        config.remove("database.sslpassword");

        Map<String, List<String>> errors = errors(config);

        assertThat(errors).containsOnlyKeys("database.sslcert");
        assertThat(errors.get("database.sslcert")).singleElement().asString().contains("client certificate");
    }
}
