package io.flushcheck.guest;

import io.flushcheck.testing.Requirements;
import org.testcontainers.DockerClientFactory;

/** Preconditions of the tests that start guests. */
public final class GuestTesting {

    static final String HOW = "bash container-images/prepare.sh, then TESTCONTAINERS_RYUK_DISABLED=true "
            + "TESTCONTAINERS_HOST_OVERRIDE=localhost where the machine looks like a container";

    private GuestTesting() {
    }

    /** A Docker engine that answers, with the base image of container-images/prepare.sh. */
    public static void requireDockerAndBaseImage() {
        boolean docker = GuestRunner.dockerAvailable();
        Requirements.require(docker, "a Docker engine (" + HOW + ")");
        boolean base;
        try {
            DockerClientFactory.instance().client().inspectImageCmd("flushcheck/debian-bookworm-base:1").exec();
            base = true;
        } catch (RuntimeException e) {
            base = false;
        }
        Requirements.require(base, "the base image flushcheck/debian-bookworm-base:1 (" + HOW + ")");
    }
}
