package io.github.pgoutput.assembly;

/** A cursor over at most one change that is already known: two-phase outcomes and non-transactional messages. */
final class FixedCursor implements ChangeCursor {

    private ChangeEvent remaining;

    private FixedCursor(ChangeEvent remaining) {
        this.remaining = remaining;
    }

    static FixedCursor empty() {
        return new FixedCursor(null);
    }

    static FixedCursor of(ChangeEvent event) {
        return new FixedCursor(event);
    }

    @Override
    public ChangeEvent next() {
        ChangeEvent event = remaining;
        remaining = null;
        return event;
    }

    @Override
    public boolean atEnd() {
        return remaining == null;
    }

    @Override
    public void close() {
    }
}
