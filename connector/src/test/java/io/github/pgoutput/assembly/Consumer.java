package io.github.pgoutput.assembly;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;

/** Reads an assembler to exhaustion of its source and records what came out, for assertions. */
final class Consumer {

    /** A delivery with the changes read from it. */
    record Received(Delivery delivery, List<ChangeEvent> changes) {
        List<String> values() {
            return changes.stream().map(change -> Script.valueOf(change.message())).toList();
        }
    }

    private Consumer() {
    }

    /** Every delivery the assembler hands out until it returns null, each read to its end. */
    static List<Received> drain(TransactionAssembler assembler) {
        List<Received> all = new ArrayList<>();
        Delivery delivery;
        while ((delivery = assembler.nextDelivery()) != null) {
            List<ChangeEvent> changes = new ArrayList<>();
            ChangeEvent event;
            while ((event = delivery.changes().next()) != null) {
                changes.add(event);
            }
            assertThat(delivery.changes().atEnd()).as("changes of %s read to the end", delivery).isTrue();
            all.add(new Received(delivery, changes));
        }
        return all;
    }
}
