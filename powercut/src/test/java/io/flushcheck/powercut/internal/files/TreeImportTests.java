package io.flushcheck.powercut.internal.files;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.flushcheck.powercut.internal.model.PowerLossModel;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermissions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A survivor's directory read into a tree ({@link TreeImport}): names, bytes, permission bits, modification times and
 * hard links as they are, all durable (a cut right after keeps all of it); a symbolic link or a FIFO refused by name.
 */
class TreeImportTests {

    @TempDir
    Path dir;

    @Test
    void aDirectoryReadsIntoTheTreeAsItIsAndAllOfItIsDurable() throws Exception {
        Path sub = Files.createDirectory(dir.resolve("sub"));
        Files.writeString(sub.resolve("a"), "alpha".repeat(300_000)); // past one 1 MiB read
        Files.setPosixFilePermissions(sub.resolve("a"), PosixFilePermissions.fromString("rw-r-----"));
        Files.setLastModifiedTime(sub.resolve("a"), FileTime.fromMillis(1_000_000_000_000L));
        Files.createLink(dir.resolve("b"), sub.resolve("a"));
        Files.createFile(dir.resolve("empty"));
        FileTree tree = new FileTree(0, 0, dir.getParent(), 64 << 20);
        try {
            TreeImport.into(tree, dir);
            assertThat(tree.unflushedBytes()).as("all of it durable").isZero();
            tree.cut(PowerLossModel.CutMode.FLUSHED, 0);
            TreeNode s = tree.lookup(FileTree.ROOT, "sub");
            TreeNode a = tree.lookup(s.id(), "a");
            assertThat(a.size()).isEqualTo(1_500_000);
            assertThat(a.mode() & 07777).isEqualTo(0640);
            assertThat(a.mtime()).isEqualTo(1_000_000_000L);
            assertThat(a.links()).isEqualTo(2);
            assertThat(tree.lookup(FileTree.ROOT, "b").id()).as("one file under two names").isEqualTo(a.id());
            assertThat(tree.lookup(FileTree.ROOT, "empty").size()).isZero();
            ByteBuffer out = ByteBuffer.allocate(10);
            tree.read(a.id(), 1_499_990, out);
            assertThat(new String(out.array(), StandardCharsets.UTF_8)).isEqualTo("alphaalpha");
        } finally {
            tree.close();
        }
    }

    @Test
    void aSymbolicLinkOrAFifoIsRefusedByName() throws Exception {
        Files.createSymbolicLink(dir.resolve("link"), Path.of("/etc/hostname"));
        FileTree tree = new FileTree(0, 0, dir.getParent(), 1 << 20);
        try {
            assertThatThrownBy(() -> TreeImport.into(tree, dir)).isInstanceOf(IOException.class)
                    .hasMessageContaining(dir.resolve("link") + " is neither a regular file nor a directory");
        } finally {
            tree.close();
        }
        Files.delete(dir.resolve("link"));
        new ProcessBuilder("mkfifo", dir.resolve("fifo").toString()).start().waitFor();
        FileTree again = new FileTree(0, 0, dir.getParent(), 1 << 20);
        try {
            assertThatThrownBy(() -> TreeImport.into(again, dir)).isInstanceOf(IOException.class)
                    .hasMessageContaining("fifo is neither a regular file nor a directory");
        } finally {
            again.close();
        }
    }
}
