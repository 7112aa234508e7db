package io.github.pgoutput.testing.kafka;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * A client of one Connect worker's REST API, as a user's {@code curl} would call it: plain HTTP on the worker's
 * listener, JSON bodies as text. Used for workers in a JVM of their own ({@link KafkaProcesses}) and for any worker
 * whose URL is known. Thread-safe.
 */
public final class ConnectRest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(30);

    private final URI base;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    /** @param baseUrl the worker's listener, e.g. {@code http://127.0.0.1:8083} */
    public ConnectRest(String baseUrl) {
        this.base = URI.create(baseUrl.endsWith("/") ? baseUrl : baseUrl + "/");
    }

    /** An HTTP answer: its status ({@code -1} when the worker could not be reached) and body. */
    public record Response(int status, String body) {

        /** Whether the status is 2xx. */
        public boolean ok() {
            return status >= 200 && status < 300;
        }

        /** The body as JSON. */
        public JsonNode json() {
            try {
                return JSON.readTree(body);
            } catch (IOException e) {
                throw new IllegalStateException("the worker's answer is not JSON: " + body, e);
            }
        }
    }

    public Response get(String path) {
        return send(request(path).GET());
    }

    public Response put(String path, String json) {
        return send(request(path).header("Content-Type", "application/json").PUT(HttpRequest.BodyPublishers.ofString(json)));
    }

    public Response post(String path, String json) {
        return send(request(path).header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(json)));
    }

    public Response delete(String path) {
        return send(request(path).DELETE());
    }

    /**
     * {@code PUT /connectors/<name>/config} once the worker lists the config's {@code connector.class}, then waits
     * until the connector and its one task are RUNNING.
     *
     * @throws IllegalStateException when the PUT is refused, the connector fails, or {@code timeout} passes
     */
    public void register(String name, JsonNode config, Duration timeout) throws InterruptedException {
        String connectorClass = config.path("connector.class").asText();
        await("connector plugin " + connectorClass + " listed by GET /connector-plugins", timeout, () -> {
            Response plugins = get("connector-plugins");
            return plugins.status() == 200 && plugins.body().contains(connectorClass);
        });
        Response put = put("connectors/" + name + "/config", config.toString());
        if (!put.ok()) {
            throw new IllegalStateException("PUT /connectors/" + name + "/config answered " + put.status() + ": " + put.body());
        }
        await("connector " + name + " and its task RUNNING", timeout, () -> isRunning(name));
    }

    /** {@link #register(String, JsonNode, Duration)} with two minutes to get there. */
    public void register(String name, JsonNode config) throws InterruptedException {
        register(name, config, Duration.ofMinutes(2));
    }

    /** Throws when connector {@code name} or its task is FAILED, with the worker's status and trace. */
    public void requireNotFailed(String name) {
        isRunning(name);
    }

    /**
     * Whether connector {@code name} and its one task are RUNNING.
     *
     * @throws IllegalStateException when the connector or a task is FAILED, with the worker's status and trace
     */
    public boolean isRunning(String name) {
        Response status = get("connectors/" + name + "/status");
        if (status.status() != 200) {
            return false;
        }
        JsonNode json = status.json();
        if (status.body().contains("\"FAILED\"")) {
            throw new IllegalStateException("connector " + name + " failed; GET /connectors/" + name + "/status: "
                    + json.toPrettyString());
        }
        JsonNode tasks = json.path("tasks");
        return "RUNNING".equals(json.path("connector").path("state").asText()) && tasks.size() == 1
                && "RUNNING".equals(tasks.get(0).path("state").asText());
    }

    /** {@code DELETE /connectors/<name>}; the worker stops the task before it answers. */
    public void deleteConnector(String name) {
        Response deleted = delete("connectors/" + name);
        if (!deleted.ok()) {
            throw new IllegalStateException("DELETE /connectors/" + name + " answered " + deleted.status() + ": "
                    + deleted.body());
        }
    }

    /** Something to wait for; may throw to stop the wait with its reason. */
    public interface Condition {
        boolean holds() throws InterruptedException;
    }

    /** Checks {@code condition} every half second until it holds. */
    public static void await(String what, Duration timeout, Condition condition) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!condition.holds()) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("waited " + timeout.toSeconds() + " s for " + what);
            }
            Thread.sleep(500);
        }
    }

    private HttpRequest.Builder request(String path) {
        return HttpRequest.newBuilder(base.resolve(path.startsWith("/") ? path.substring(1) : path))
                .timeout(REQUEST_TIMEOUT);
    }

    private Response send(HttpRequest.Builder request) {
        try {
            HttpResponse<String> response = http.send(request.build(), HttpResponse.BodyHandlers.ofString());
            return new Response(response.statusCode(), response.body());
        } catch (IOException notReachable) {
            return new Response(-1, notReachable.toString());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while calling the worker's REST API", e);
        }
    }
}
