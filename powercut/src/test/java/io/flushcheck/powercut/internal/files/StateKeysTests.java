package io.flushcheck.powercut.internal.files;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Each crash state's order and digest found from what it changes of its tree ({@link FileTree#stateKeys}) are those
 * of the whole state ({@link FileTree#stateKey}, which {@link FileTree#state} says), for random workloads: names made,
 * linked, removed and renamed over files and directories, writes and truncations over a few pages, permission bits,
 * files with no name, and syncs of files and directories, under both rules.
 */
class StateKeysTests {

    private static final long ROOT = FileTree.ROOT;
    private static final String[] NAMES = {"a", "b", "c", "d"};

    @ParameterizedTest
    @ValueSource(booleans = {true, false})
    void eachStatesKeyFromItsChangesIsTheWholeStates(boolean journaled) throws Exception {
        int compared = 0;
        for (long seed = 0; seed < 150; seed++) {
            compared += workload(new SplittableRandom(seed), journaled, seed);
        }
        // Every kind of state was compared: the workloads reach each.
        assertThat(compared).as("states compared").isGreaterThan(5000);
    }

    /** Runs one random workload, comparing every state of each epoch's end; returns the states compared. */
    private static int workload(SplittableRandom random, boolean journaled, long seed) throws Exception {
        FileTree t = new FileTree(0, 0, journaled);
        try {
            List<Long> dirs = new ArrayList<>(List.of(ROOT));
            List<Long> files = new ArrayList<>();
            int compared = 0;
            // Some workloads ask for keys from the start, some only late: the names' digest starts from either.
            int firstCheck = random.nextInt(3) == 0 ? 0 : random.nextInt(40);
            for (int op = 0; op < 60; op++) {
                long dir = dirs.get(random.nextInt(dirs.size()));
                String name = NAMES[random.nextInt(NAMES.length)];
                try {
                    switch (random.nextInt(14)) {
                        case 0, 1 -> files.add(t.create(dir, name, false, 0644, 0, 0).id());
                        case 2 -> dirs.add(t.create(dir, name, true, 0755, 0, 0).id());
                        case 3, 4, 5 -> {
                            if (!files.isEmpty()) {
                                long f = files.get(random.nextInt(files.size()));
                                byte[] b = new byte[1 + random.nextInt(6000)];
                                java.util.Arrays.fill(b, (byte) ('a' + random.nextInt(26)));
                                long at = random.nextInt(4) == 0 ? t.node(f).size() : random.nextInt(12000);
                                t.write(f, at, ByteBuffer.wrap(b));
                            }
                        }
                        case 6 -> {
                            if (!files.isEmpty()) {
                                t.truncate(files.get(random.nextInt(files.size())), random.nextInt(16000));
                            }
                        }
                        case 7 -> t.remove(dir, name, random.nextBoolean());
                        case 8, 9 -> t.rename(dir, name, dirs.get(random.nextInt(dirs.size())),
                                NAMES[random.nextInt(NAMES.length)], random.nextInt(4) == 0);
                        case 10 -> {
                            if (!files.isEmpty()) {
                                t.link(files.get(random.nextInt(files.size())), dir, name);
                            }
                        }
                        case 11 -> {
                            List<Long> all = new ArrayList<>(dirs);
                            all.addAll(files);
                            t.setAttributes(all.get(random.nextInt(all.size())), random.nextBoolean() ? 0600 : 0755,
                                    null, null, null);
                        }
                        case 12 -> {
                            if (random.nextInt(4) == 0) {
                                files.add(t.unnamed(0600).id());
                            }
                        }
                        default -> {
                            List<Long> all = new ArrayList<>(dirs);
                            all.addAll(files);
                            long synced = all.get(random.nextInt(all.size()));
                            if (op >= firstCheck) {
                                compared += compare(t, seed, op);
                            }
                            t.sync(synced);
                        }
                    }
                } catch (FileTree.Errno e) {
                    // a change the tree refuses (no such name, not empty, a directory into itself): as the kernel would
                }
            }
            return compared + compare(t, seed, -1);
        } finally {
            t.close();
        }
    }

    private static int compare(FileTree t, long seed, int op) {
        List<StatePick> picks = t.statePicks();
        List<StateKeys.Key> keys = t.stateKeys(picks);
        for (int i = 0; i < picks.size(); i++) {
            StateKeys.Key whole = t.stateKey(picks.get(i));
            assertThat(keys.get(i)).as("seed %d, before op %d: state %s", seed, op, picks.get(i)).isEqualTo(whole);
            FileTree.State state = t.state(picks.get(i), null);
            assertThat(state.digest()).isEqualTo(whole.digest().hex());
            assertThat(state.lost()).isEqualTo(whole.lost());
        }
        return picks.size();
    }
}
