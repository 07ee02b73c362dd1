package io.flushcheck.powercut;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.flushcheck.powercut.internal.disk.RecordingFiles;
import io.flushcheck.powercut.internal.explain.TreeView;
import io.flushcheck.powercut.internal.states.WritePlaces;
import io.flushcheck.testing.Requirements;
import java.io.IOException;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.nio.file.attribute.UserPrincipal;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Where {@code --record DIR} saves, as root runs it: a directory another user owns or can write, or a link, is
 * refused; a link planted where a file of the recording goes is never followed, whenever it appears; the files
 * are their owner's alone.
 */
class SavedRecordingDirectoryTests {

    @TempDir
    Path tmp;

    @Test
    void anEmptyDirectoryOfAnotherUserIsRefusedAndLeftEmpty() throws Exception {
        Requirements.requireRoot();
        Path dir = Files.createDirectory(tmp.resolve("nobodys"));
        UserPrincipal nobody = dir.getFileSystem().getUserPrincipalLookupService().lookupPrincipalByName("65534");
        Files.setOwner(dir, nobody);

        assertThatThrownBy(() -> save(dir, null)).isInstanceOf(IOException.class)
                .hasMessageContaining(dir.toString()).hasMessageContaining("owned by another user");
        try (var left = Files.list(dir)) {
            assertThat(left).isEmpty();
        }
    }

    @Test
    void aDirectoryOthersCanWriteIsRefused() throws Exception {
        Path dir = Files.createDirectory(tmp.resolve("shared"));
        Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxrwxrwx"));

        assertThatThrownBy(() -> save(dir, null)).isInstanceOf(IOException.class)
                .hasMessageContaining("other users can write");
        try (var left = Files.list(dir)) {
            assertThat(left).isEmpty();
        }
    }

    @Test
    void aDirectoryThatIsALinkIsRefused() throws Exception {
        Path target = Files.createDirectory(tmp.resolve("target"));
        Path link = Files.createSymbolicLink(tmp.resolve("link"), target);

        assertThatThrownBy(() -> save(link, null)).isInstanceOf(IOException.class)
                .hasMessageContaining("symbolic link");
        try (var left = Files.list(target)) {
            assertThat(left).isEmpty();
        }
    }

    /**
     * The link to a victim appears after the directory was found empty and the image and log were written, just
     * before the manifest is: as another user who owns the directory's parent could plant it, at any moment.
     */
    @Test
    void aManifestLinkPlantedDuringTheSaveIsNotFollowedAndItsTargetKeepsItsBytes() throws Exception {
        Path victim = Files.writeString(tmp.resolve("precious"), "precious");
        Path dir = tmp.resolve("recording");
        Runnable plant = () -> {
            try {
                Files.createSymbolicLink(dir.resolve(SavedRecording.MANIFEST), victim);
            } catch (IOException e) {
                throw new IllegalStateException(e);
            }
        };

        assertThatThrownBy(() -> save(dir, plant)).isInstanceOf(IOException.class)
                .hasMessageContaining(SavedRecording.MANIFEST);
        assertThat(Files.readString(victim)).isEqualTo("precious");
        assertThat(Files.isSymbolicLink(dir.resolve(SavedRecording.MANIFEST))).isTrue();
    }

    @Test
    void theDirectoryAndEveryFileSavedAreTheirOwnersAlone() throws Exception {
        Path dir = tmp.resolve("recording");
        save(dir, null);

        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(dir))).isEqualTo("rwx------");
        for (String name : List.of(SavedRecording.MANIFEST, SavedRecording.BASE, SavedRecording.LOG)) {
            assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(dir.resolve(name))))
                    .as(name).isEqualTo("rw-------");
        }
    }

    /**
     * Saves a block model's recording of a small image and log into {@code dir}; {@code planting} runs after the
     * image and the log are saved, before the manifest is.
     */
    private void save(Path dir, Runnable planting) throws IOException {
        Path base = tmp.resolve("base.src");
        Files.write(base, new byte[1 << 20]);
        Path log = Files.write(tmp.resolve("log.src"), new byte[] {'S', 0, 0, 0, 0, 0, 0, 0, 0});
        Path root = Path.of("/mnt/ended");
        Path hooked = planting == null ? root : (Path) Proxy.newProxyInstance(getClass().getClassLoader(),
                new Class<?>[] {Path.class}, (proxy, method, args) -> {
                    if (method.getName().equals("toString")) {
                        planting.run();
                    }
                    try {
                        return method.invoke(root, args);
                    } catch (InvocationTargetException e) {
                        throw e.getCause();
                    }
                });
        TreeView ended = TreeView.of(hooked, Map.of(), true);
        try (RecordingFiles files = RecordingFiles.open(base, log)) {
            SavedRecording.save(dir, files.base(), files.log(), AcknowledgedRecords.loaded(List.of()), "ext4", 4096,
                    WritePlaces.none(), ended);
        }
        assertThat(Files.exists(dir.resolve(SavedRecording.MANIFEST), LinkOption.NOFOLLOW_LINKS)).isTrue();
    }
}
