package io.github.pgoutput.converters;

/**
 * inet, cidr, macaddr and macaddr8 send forms, printed exactly as PostgreSQL's output functions print them,
 * so that a column gives the same string whether the {@code binary} option is on or off.
 */
final class NetworkAddresses {

    /** PGSQL_AF_INET and PGSQL_AF_INET6 as sent on the wire (not the platform's AF_ values). */
    private static final int FAMILY_INET = 2;
    private static final int FAMILY_INET6 = 3;

    private NetworkAddresses() {
    }

    /** inet_send/cidr_send: family, bits, is_cidr, address length, address bytes. */
    static String inetFromSend(BinaryReader in, boolean cidr) {
        int family = in.uint8();
        int bits = in.uint8();
        in.uint8(); // is_cidr flag: the column type already says which it is
        int length = in.uint8();
        byte[] address = in.bytes(length);
        in.expectEnd();
        int maxBits;
        String text;
        if (family == FAMILY_INET && length == 4) {
            maxBits = 32;
            text = (address[0] & 0xFF) + "." + (address[1] & 0xFF) + "." + (address[2] & 0xFF) + "." + (address[3] & 0xFF);
        } else if (family == FAMILY_INET6 && length == 16) {
            maxBits = 128;
            text = ipv6(address);
        } else {
            throw new IllegalArgumentException("address family " + family + " with " + length + " bytes is neither IPv4 nor IPv6");
        }
        // inet omits a full-length mask; cidr always shows it.
        return cidr || bits != maxBits ? text + "/" + bits : text;
    }

    /**
     * PostgreSQL's IPv6 formatting: the longest run (first if tied) of at least two zero groups becomes "::",
     * and an address whose first 96 bits are zero, or ::ffff: mapped, ends in dotted IPv4.
     */
    private static String ipv6(byte[] address) {
        int[] words = new int[8];
        for (int i = 0; i < 8; i++) {
            words[i] = ((address[2 * i] & 0xFF) << 8) | (address[2 * i + 1] & 0xFF);
        }
        int bestBase = -1;
        int bestLength = 0;
        int runBase = -1;
        for (int i = 0; i <= 8; i++) {
            if (i < 8 && words[i] == 0) {
                if (runBase < 0) {
                    runBase = i;
                }
            } else if (runBase >= 0) {
                if (i - runBase > bestLength) {
                    bestBase = runBase;
                    bestLength = i - runBase;
                }
                runBase = -1;
            }
        }
        if (bestLength < 2) {
            bestBase = -1;
        }
        StringBuilder out = new StringBuilder(46);
        for (int i = 0; i < 8; i++) {
            if (bestBase >= 0 && i >= bestBase && i < bestBase + bestLength) {
                if (i == bestBase) {
                    out.append(':');
                }
                continue;
            }
            if (i != 0) {
                out.append(':');
            }
            if (i == 6 && bestBase == 0 && (bestLength == 6 || (bestLength == 5 && words[5] == 0xFFFF))) {
                out.append(address[12] & 0xFF).append('.').append(address[13] & 0xFF).append('.')
                        .append(address[14] & 0xFF).append('.').append(address[15] & 0xFF);
                return out.toString();
            }
            out.append(Integer.toHexString(words[i]));
        }
        if (bestBase >= 0 && bestBase + bestLength == 8) {
            out.append(':');
        }
        return out.toString();
    }

    /** macaddr (6 bytes) and macaddr8 (8 bytes): lower-case hex pairs joined by ':'. */
    static String macFromSend(BinaryReader in, int length) {
        byte[] bytes = in.bytes(length);
        in.expectEnd();
        StringBuilder out = new StringBuilder(length * 3);
        for (int i = 0; i < length; i++) {
            if (i > 0) {
                out.append(':');
            }
            out.append(Character.forDigit((bytes[i] >> 4) & 0xF, 16)).append(Character.forDigit(bytes[i] & 0xF, 16));
        }
        return out.toString();
    }
}
