package io.github.pgoutput.replication;

import java.util.ArrayList;
import java.util.List;

/**
 * The servers named by {@code database.hostname}: one host, or a comma-separated list of them for a primary and its
 * standbys, each {@code host} or {@code host:port} ({@code [address]:port} for an IPv6 address); a host without a port
 * takes {@code database.port}. With more than one server the connector connects to whichever is the primary at the
 * time (pgjdbc's {@code targetServerType=primary}), so after a promotion it follows the new primary.
 *
 * <p>Pure and thread-safe.
 */
public final class ServerAddresses {

    private ServerAddresses() {
    }

    /** One server: a host name or address (IPv6 without brackets) and a port. */
    public record Address(String host, int port) {

        /** As in a JDBC URL: IPv6 addresses in brackets. */
        String forUrl() {
            return (host.contains(":") ? "[" + host + "]" : host) + ":" + port;
        }
    }

    /**
     * Parses {@code hostname}.
     *
     * @param defaultPort the port of entries that name none ({@code database.port})
     * @throws IllegalArgumentException saying which entry is malformed and why
     */
    public static List<Address> parse(String hostname, int defaultPort) {
        if (hostname == null || hostname.isBlank()) {
            throw new IllegalArgumentException("names no host");
        }
        List<Address> addresses = new ArrayList<>();
        for (String raw : hostname.split(",", -1)) {
            String entry = raw.strip();
            if (entry.isEmpty()) {
                throw new IllegalArgumentException("has an empty entry in '" + hostname
                        + "'; separate hosts with single commas, e.g. 'pg-a:5432,pg-b:5432'");
            }
            addresses.add(parseEntry(entry, defaultPort));
        }
        if (addresses.stream().distinct().count() < addresses.size()) {
            throw new IllegalArgumentException("names the same server twice in '" + hostname + "'");
        }
        return List.copyOf(addresses);
    }

    private static Address parseEntry(String entry, int defaultPort) {
        if (entry.startsWith("[")) {
            int close = entry.indexOf(']');
            if (close < 0) {
                throw new IllegalArgumentException("entry '" + entry + "' opens an IPv6 address with '[' but does not close it");
            }
            String host = entry.substring(1, close);
            String rest = entry.substring(close + 1);
            if (host.isEmpty()) {
                throw new IllegalArgumentException("entry '" + entry + "' has an empty address between the brackets");
            }
            if (rest.isEmpty()) {
                return new Address(host, defaultPort);
            }
            if (!rest.startsWith(":")) {
                throw new IllegalArgumentException("entry '" + entry + "' has '" + rest + "' after the address; expected ':port'");
            }
            return new Address(host, port(entry, rest.substring(1)));
        }
        int colon = entry.indexOf(':');
        if (colon < 0) {
            return new Address(entry, defaultPort);
        }
        if (entry.indexOf(':', colon + 1) >= 0) {
            // Two colons: an IPv6 address without a port, the form a single host has always been given in.
            return new Address(entry, defaultPort);
        }
        if (colon == 0) {
            throw new IllegalArgumentException("entry '" + entry + "' has a port but no host");
        }
        return new Address(entry.substring(0, colon), port(entry, entry.substring(colon + 1)));
    }

    private static int port(String entry, String text) {
        int port;
        try {
            port = Integer.parseInt(text);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("entry '" + entry + "' has the port '" + text + "', which is not a number");
        }
        if (port < 1 || port > 65535) {
            throw new IllegalArgumentException("entry '" + entry + "' has the port " + port + ", outside 1-65535");
        }
        return port;
    }

    /** {@code hostname} with every port filled in, for messages; as given when it does not parse. */
    static String describe(String hostname, int defaultPort) {
        try {
            return forUrl(parse(hostname, defaultPort));
        } catch (IllegalArgumentException e) {
            return hostname + ":" + defaultPort;
        }
    }

    /** The host part of a JDBC URL for {@code addresses}: {@code h1:p1,h2:p2}. */
    static String forUrl(List<Address> addresses) {
        return String.join(",", addresses.stream().map(Address::forUrl).toList());
    }
}
