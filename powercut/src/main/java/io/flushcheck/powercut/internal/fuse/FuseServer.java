package io.flushcheck.powercut.internal.fuse;

import java.io.IOException;
import org.apiguardian.api.API;

/** A FUSE filesystem of flushcheck's own, mounted: it answers the kernel until unmounted. */
@API(status = API.Status.INTERNAL, since = "0.1")
public interface FuseServer {

    /** Answers requests until the filesystem is unmounted (or DESTROY). */
    void serve() throws IOException;

    /** Unmounts, lazily (open files do not keep it); throws when the mount is still there afterwards. */
    void unmount() throws IOException;

    /** Closes the connection's descriptor, once serving has ended. */
    void close();
}
