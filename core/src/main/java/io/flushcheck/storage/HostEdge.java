package io.flushcheck.storage;

import org.apiguardian.api.API;

/**
 * What the host that runs this VM guest measured on the far side of one of its virtual disks: whether the
 * flushes the guest's disk completes reach the host's disk. A guest cannot see that itself (its virtual disk
 * acknowledges whatever the hypervisor says), so the host that starts the guest states it, in the system
 * property {@value #PROPERTY} as {@code DEVICE:reached:EVIDENCE} or {@code DEVICE:missing:EVIDENCE}, for
 * example {@code vda:missing:cache=unsafe, 0 of 64 flushes reached the host's loop3}. flushcheck-vm sets it for
 * the JVMs it runs in its guests. A statement can only make a verdict stricter: {@code missing} makes a path on
 * that disk NO_REAL_FLUSH, {@code reached} adds the evidence and leaves the verdict to the probe.
 *
 * @param device            the guest's block device the statement is about, e.g. {@code vda}
 * @param flushesReachHost  true when the host counted the flushes arriving on its disk
 * @param evidence          what the host measured, in words
 */
@API(status = API.Status.EXPERIMENTAL, since = "0.1.0")
public record HostEdge(String device, boolean flushesReachHost, String evidence) {

    public static final String PROPERTY = "flushcheck.hostEdge";

    public HostEdge {
        if (!isDeviceName(device)) {
            throw new IllegalArgumentException("a host edge statement needs a device name such as vda, not '" + device + "'");
        }
        evidence = evidence == null ? "" : evidence;
    }

    /**
     * Reads {@code DEVICE:reached|missing:EVIDENCE}.
     *
     * @throws IllegalArgumentException naming the expected form
     */
    public static HostEdge parse(String value) {
        int a = value.indexOf(':');
        int b = a < 0 ? -1 : value.indexOf(':', a + 1);
        String word = a < 0 ? "" : b < 0 ? value.substring(a + 1) : value.substring(a + 1, b);
        if (a <= 0 || !isDeviceName(value.substring(0, a)) || !(word.equals("reached") || word.equals("missing"))) {
            throw new IllegalArgumentException(PROPERTY + "=" + value + " is not DEVICE:reached:EVIDENCE or "
                    + "DEVICE:missing:EVIDENCE");
        }
        return new HostEdge(value.substring(0, a), word.equals("reached"), b < 0 ? "" : value.substring(b + 1));
    }

    private static boolean isDeviceName(String d) {
        return d != null && !d.isBlank() && d.indexOf(':') < 0 && d.indexOf('/') < 0;
    }

    /** The property's value for this statement. */
    public String propertyValue() {
        return device + ":" + (flushesReachHost ? "reached" : "missing") + ":" + evidence;
    }
}
