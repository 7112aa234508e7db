package io.github.pgoutput.replication;

import java.net.UnknownHostException;
import java.security.GeneralSecurityException;
import java.security.cert.CertPathBuilderException;
import java.security.cert.CertPathValidatorException;
import java.sql.SQLException;
import java.util.Optional;
import javax.net.ssl.SSLHandshakeException;

/**
 * Explains the failures of opening a connection whose SQLState alone says too little: those pgjdbc reports with a
 * generic SQLState (08001, 08004, 08006) and a generic message ("The connection attempt failed."), a host name that
 * does not resolve, and the TLS refusals; and the server's refusals of the login ({@link ConnectionRefusals}: a wrong
 * password, an unknown role, no pg_hba.conf line, no CONNECT privilege, no such database, a password the server asks
 * for and the configuration lacks). Each is blamed on the setting a user has to change, not on the host, and says how
 * to fix it. The messages say nothing of retrying: the task adds that where it does retry.
 *
 * <p>pgjdbc names these cases only in its (English) message texts and in the cause chain, so that is what is read
 * here. Stateless and thread-safe.
 */
public final class ConnectionFailures {

    private ConnectionFailures() {
    }

    /**
     * @param error  what pgjdbc threw while connecting (or anything with it in its cause chain)
     * @param during what was being done; starts the message
     * @return the explained failure, or empty when {@code error} is none of the cases known here. An unknown host is
     *         transient (DNS may catch up, a service may not be published yet); every TLS refusal is permanent.
     */
    public static Optional<ReplicationException> explain(Throwable error, String during) {
        return explain(error, during, null);
    }

    /**
     * {@link #explain(Throwable, String)}, naming {@code user} in the statements that fix a refusal (the server's
     * refusal of the CONNECT privilege does not name the role).
     *
     * @param user the role that logged in (database.user), or null when not known
     */
    public static Optional<ReplicationException> explain(Throwable error, String during, String user) {
        SQLException sql = first(error, SQLException.class);
        if (sql == null) {
            return Optional.empty();
        }
        String text = during + " failed: " + sql.getMessage() + (sql.getSQLState() == null ? "" : " [SQLState " + sql.getSQLState() + "]");
        String message = String.valueOf(sql.getMessage());
        UnknownHostException unknownHost = first(error, UnknownHostException.class);
        if (unknownHost != null) {
            return Optional.of(new ReplicationConnectionLostException(Setting.HOSTNAME, text + "; the host name '"
                    + hostOf(unknownHost) + "' could not be resolved (unknown host); fix database.hostname (a name the"
                    + " Connect worker's DNS knows, or an IP address)", error));
        }
        Optional<ReplicationException> authentication = ConnectionRefusals.explain(sql, text, error, user);
        if (authentication.isPresent()) {
            return authentication;
        }
        if (message.contains("does not support SSL")) {
            return Optional.of(new ReplicationSetupException(Setting.SSL, text + "; database.sslmode asks for TLS but the"
                    + " server has ssl = off; turn ssl on in postgresql.conf (with ssl_cert_file and ssl_key_file), or"
                    + " set database.sslmode=prefer or disable", error));
        }
        if (message.contains("could not be verified by hostnameverifier")) {
            return Optional.of(new ReplicationSetupException(Setting.SSL, text + "; database.sslmode=verify-full checks"
                    + " that the server certificate names the host connected to, and it does not; set database.hostname"
                    + " to a name in the certificate's subjectAltName (or CN), issue the server a certificate for this"
                    + " name, or use database.sslmode=verify-ca", error));
        }
        if (message.contains("SSL root certificate file")) {
            return Optional.of(new ReplicationSetupException(Setting.SSL_ROOT_CERT, text + "; database.sslrootcert must"
                    + " name a readable PEM file with the CA certificate that signed the server certificate", error));
        }
        if (message.contains("PBES2")) {
            return Optional.of(new ReplicationSetupException(Setting.SSL_CLIENT_KEY, text + "; the client key in"
                    + " database.sslkey is encrypted with PBES2 (AES), which pgjdbc cannot decrypt on this Java; encrypt it"
                    + " with a PKCS#12 PBE instead (openssl pkcs8 -topk8 -v1 PBE-SHA1-3DES -outform DER -in key.pem -out"
                    + " key.pk8), or give a PKCS-12 file (.p12) whose password is database.sslpassword", error));
        }
        if (message.contains("Could not decrypt SSL key file") || message.contains("password for SSL key")) {
            return Optional.of(new ReplicationSetupException(Setting.SSL_KEY_PASSWORD, text + "; the client key in"
                    + " database.sslkey is encrypted and database.sslpassword does not decrypt it; set"
                    + " database.sslpassword to the key's password", error));
        }
        if (message.contains("SSL key file")) {
            return Optional.of(new ReplicationSetupException(Setting.SSL_CLIENT_KEY, text + "; database.sslkey must"
                    + " name a readable client key: PKCS-8 DER (.pk8, encrypted or not; openssl pkcs8 -topk8 -outform DER),"
                    + " an unencrypted PKCS-8 PEM, or PKCS-12 (.p12)", error));
        }
        if (message.contains("SSL certificate file") || message.contains("into a KeyManager")) {
            return Optional.of(new ReplicationSetupException(Setting.SSL_CLIENT_CERT, text + "; database.sslcert must"
                    + " name a readable PEM file with the client certificate", error));
        }
        if (SqlStates.INVALID_AUTHORIZATION.equals(sql.getSQLState()) && message.contains("certificate")) {
            return Optional.of(new ReplicationSetupException(Setting.SSL_CLIENT_CERT, text + "; pg_hba.conf asks this"
                    + " connection for a client certificate; set database.sslcert and database.sslkey to a certificate"
                    + " signed by the server's ssl_ca_file whose CN is database.user", error));
        }
        if (first(error, CertPathBuilderException.class) != null || first(error, CertPathValidatorException.class) != null) {
            return Optional.of(new ReplicationSetupException(Setting.SSL_ROOT_CERT, text + "; the server certificate is"
                    + " not signed by a CA in database.sslrootcert; set database.sslrootcert to the CA certificate that"
                    + " signed it (or database.sslmode=require to encrypt without checking the certificate)", error));
        }
        // Only a handshake refusal: an SSLException on an established connection (a reset under TLS) is a lost
        // connection like any other, and a handshake cut by the network is one too.
        SSLHandshakeException tls = first(error, SSLHandshakeException.class);
        boolean cutByNetwork = first(error, java.io.EOFException.class) != null || first(error, java.net.SocketException.class) != null;
        if ((tls != null || first(error, GeneralSecurityException.class) != null) && !cutByNetwork) {
            return Optional.of(new ReplicationSetupException(Setting.SSL, text + "; the TLS handshake failed"
                    + (tls == null ? "" : " (" + tls.getMessage() + ")") + "; check database.sslmode, database.sslrootcert,"
                    + " database.sslcert and database.sslkey against the server's ssl settings", error));
        }
        return Optional.empty();
    }

    private static String hostOf(UnknownHostException e) {
        String text = String.valueOf(e.getMessage());
        int colon = text.indexOf(": ");
        return colon > 0 ? text.substring(0, colon) : text;
    }

    private static <T extends Throwable> T first(Throwable error, Class<T> type) {
        for (Throwable t = error; t != null; t = t.getCause()) {
            if (type.isInstance(t)) {
                return type.cast(t);
            }
            if (t.getCause() == t) {
                break;
            }
        }
        return null;
    }
}
