package io.github.pgoutput.localrun;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * Registers the connector over the worker's REST API from {@code config/pgoutput-source.json}, with the database
 * coordinates and spill directory of this run patched in, and waits until connector and task are RUNNING.
 */
public final class ConnectorRegistration {

    static final String NAME = "shop";
    private static final ObjectMapper JSON = new ObjectMapper();

    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private final URI rest;
    private final String name;

    ConnectorRegistration(String rest) {
        this(rest, NAME);
    }

    /** Registers connectors named {@code name} with the worker whose REST API is at {@code rest}. */
    public ConnectorRegistration(String rest, String name) {
        this.rest = URI.create(rest);
        this.name = name;
    }

    /** The patched connector config; {@code spill.directory} is set to {@code spillDir}. */
    static ObjectNode config(Path configFile, LocalPostgres postgres, Path spillDir) throws IOException {
        ObjectNode config = (ObjectNode) JSON.readTree(configFile.toFile());
        config.put("database.hostname", postgres.host);
        config.put("database.port", String.valueOf(postgres.port));
        config.put("database.user", postgres.user);
        if (postgres.password.isPresent()) {
            config.put("database.password", postgres.password.get());
        } else {
            config.remove("database.password");
        }
        config.put("database.dbname", postgres.database);
        config.put("spill.directory", spillDir.toString());
        return config;
    }

    /** PUTs {@code config} and waits up to 120 s until the connector and its one task are RUNNING. */
    public void register(ObjectNode config) throws IOException, InterruptedException {
        await("the connector plugin listed by GET /connector-plugins", () -> {
            Response plugins = send(HttpRequest.newBuilder(rest.resolve("/connector-plugins")).GET());
            return plugins.status == 200 && plugins.body.contains(config.path("connector.class").asText());
        });
        Response put = send(HttpRequest.newBuilder(rest.resolve("/connectors/" + name + "/config"))
                .header("Content-Type", "application/json").PUT(HttpRequest.BodyPublishers.ofString(config.toString())));
        if (put.status != 200 && put.status != 201) {
            throw new IllegalStateException("PUT /connectors/" + name + "/config answered " + put.status + ": " + put.body);
        }
        await("connector and task RUNNING", this::running);
    }

    private boolean running() throws IOException, InterruptedException {
        Response status = send(HttpRequest.newBuilder(rest.resolve("/connectors/" + name + "/status")).GET());
        if (status.status != 200) {
            return false;
        }
        JsonNode json = JSON.readTree(status.body);
        if (status.body.contains("\"FAILED\"")) {
            throw new IllegalStateException("the connector failed; GET /connectors/" + name + "/status: "
                    + json.toPrettyString());
        }
        JsonNode tasks = json.path("tasks");
        return "RUNNING".equals(json.path("connector").path("state").asText()) && tasks.size() == 1
                && "RUNNING".equals(tasks.get(0).path("state").asText());
    }

    private interface Check {
        boolean done() throws IOException, InterruptedException;
    }

    private static void await(String what, Check check) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(120).toNanos();
        while (!check.done()) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("waited 120 s for " + what + "; see worker.log in the run's folder");
            }
            Thread.sleep(500);
        }
    }

    private Response send(HttpRequest.Builder request) throws InterruptedException {
        try {
            HttpResponse<String> response = http.send(request.timeout(Duration.ofSeconds(30)).build(),
                    HttpResponse.BodyHandlers.ofString());
            return new Response(response.statusCode(), response.body());
        } catch (IOException notReachableYet) {
            return new Response(-1, notReachableYet.toString());
        }
    }

    private record Response(int status, String body) {
    }
}
