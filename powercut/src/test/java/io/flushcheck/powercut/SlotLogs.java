package io.flushcheck.powercut;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.CRC32C;

/**
 * Two tiny stores of text records, each record in a 4 KiB slot of its own, the N-th in slot N, in a file made
 * of zeroed slots at the start (so every record overwrites its slot in place) and written with a buffered write and
 * an fsync before it is acknowledged. Reading returns the records slot by slot up to the first empty slot (all zeros),
 * the end of the log. {@link #PLAIN} stores a length and the text, and believes what it reads. {@link #CHECKED}
 * stores with each record its own slot number and a CRC32C over the slot number, length and text, and refuses a slot
 * whose checksum does not match or whose slot number is not its own (a record at the wrong place).
 */
enum SlotLogs {
    PLAIN,
    CHECKED;

    static final int SLOT = 4096;

    /** A store's refusal to read a slot: its checksum or its place is wrong. */
    static final class BadRecord extends IOException {
        private static final long serialVersionUID = 1L;

        BadRecord(String message) {
            super(message);
        }
    }

    /** A new log of {@code slots} empty slots at {@code file}, synced with its name. */
    static void create(Path file, int slots) throws IOException {
        Slot.createZeros(file, slots * SLOT);
    }

    /** Writes {@code text} as record {@code n} (its slot, from 0) and fsyncs: on return it is acknowledged. */
    void append(Path file, int n, String text) throws IOException {
        byte[] body = text.getBytes(StandardCharsets.UTF_8);
        ByteBuffer slot = ByteBuffer.allocate(SLOT);
        if (this == CHECKED) {
            slot.putLong(n);
        }
        slot.putInt(body.length).put(body);
        if (this == CHECKED) {
            slot.putLong(crc(slot.array(), slot.position()));
        }
        slot.clear();
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.WRITE)) {
            while (slot.hasRemaining()) {
                ch.write(slot, (long) n * SLOT + slot.position());
            }
            ch.force(true);
        }
    }

    /** The records, slot by slot, up to the first empty slot; a {@link BadRecord} where a checked slot is wrong. */
    List<String> read(Path file) throws IOException {
        byte[] all = Files.readAllBytes(file);
        List<String> records = new ArrayList<>();
        for (int n = 0; (long) (n + 1) * SLOT <= all.length; n++) {
            ByteBuffer slot = ByteBuffer.wrap(all, n * SLOT, SLOT).slice();
            if (empty(slot)) {
                break;
            }
            long own = this == CHECKED ? slot.getLong() : n;
            int length = slot.getInt();
            if (length < 0 || length > slot.remaining() - (this == CHECKED ? 8 : 0)) {
                throw new BadRecord("slot " + n + ": a length of " + length);
            }
            String text = new String(all, n * SLOT + slot.position(), length, StandardCharsets.UTF_8);
            if (this == CHECKED) {
                slot.position(slot.position() + length);
                byte[] covered = new byte[slot.position()];
                slot.duplicate().position(0).get(covered);
                long stored = slot.getLong();
                if (stored != crc(covered, covered.length)) {
                    throw new BadRecord("slot " + n + ": its checksum does not match its bytes");
                }
                if (own != n) {
                    throw new BadRecord("slot " + n + " holds the record of slot " + own + " (\"" + text
                            + "\"): a write that landed at the wrong place");
                }
            }
            records.add(text);
        }
        return records;
    }

    private static boolean empty(ByteBuffer slot) {
        for (int i = 0; i < SLOT; i++) {
            if (slot.get(i) != 0) {
                return false;
            }
        }
        return true;
    }

    private static long crc(byte[] bytes, int length) {
        CRC32C c = new CRC32C();
        c.update(bytes, 0, length);
        return c.getValue();
    }
}
