/* A write+fdatasync loop in plain C, with each of the things flushcheck's probe does around it switched on
 * one at a time, so that a bench can say what each costs. Each round's write and fdatasync are timed apart
 * with CLOCK_MONOTONIC.
 *
 * usage: sync-loop [-s STAT]... [-i|-I] [-c] DIR LAYOUT BLOCK SIZE
 *   LAYOUT  append     a new, empty file; write(2) appends BLOCK bytes, SIZE/BLOCK times
 *           fallocate  fio's layout for --rw=write: a new file, fallocate(2)d to SIZE (mode 0, so its size is
 *                      SIZE), then written from its start in BLOCK-byte write(2)s, SIZE/BLOCK times
 *           overwrite  SIZE/BLOCK blocks written and fsync'd first, then each round pwrite(2)s one of them again
 *   -s STAT a /sys/block/DEV/stat file read just before and just after each fdatasync, outside its timing
 *           (flushcheck's flush brackets); may be given several times
 *   -i      idle windows: after every 10 ms of rounds, a pause of a quarter of that (flushcheck's windows, in
 *           which it samples other work on the device), asleep
 *   -I      the same windows, as long as their stretch, spent spinning (flushcheck's idle brackets on a busy device)
 *   -c      in each window, as many unsynced writes to a second file as the stretch made synced ones
 *           (flushcheck's control writes)
 *   -x      the first two rounds after each window left out of the figures (never the last of a stretch), as
 *           flushcheck's probe leaves them out of its latencies (a sync after a pause is slower than one in a loop
 *           that does not pause)
 *   -b      three more lines, of all the rounds, -x or not: fdatasync p50 p99 of the rounds by their place in their
 *           stretch (1st, 2nd, 3rd, 4th to 10th, the others: "by-place 1:COUNT P50 P99 2:..."); with the first K
 *           rounds after each window left out, K from 0 to 5 ("without-first K:COUNT P50 P99 ..."); of the first
 *           tenth of the rounds and of the rest ("first-tenth P50 P99 rest P50 P99"), as SyncRounds.java prints them
 * Prints one line: fdatasync p50 p99, write p50, round (write+fdatasync) p50 p99, in microseconds. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static int cmp(const void *a, const void *b) {
    long x = *(const long *)a, y = *(const long *)b;
    return (x > y) - (x < y);
}

static long now_ns(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1000000000L + t.tv_nsec;
}

/* The p-th percentile by nearest rank: the value at or below which p percent of the rounds fall. */
static double pct(long *v, long n, double p) {
    qsort(v, n, sizeof(long), cmp);
    long rank = (long)(p / 100.0 * n + 0.999999);
    if (rank < 1) rank = 1;
    return v[rank - 1] / 1000.0;
}

static void read_stats(int *fds, int n) {
    char buf[512];
    for (int i = 0; i < n; i++) {
        if (pread(fds[i], buf, sizeof buf, 0) < 0) { perror("pread stat"); exit(1); }
    }
}

int main(int argc, char **argv) {
    int stats[8], nstats = 0, idle = 0, control = 0, breakdown = 0, leave_out = 0, opt;
    while ((opt = getopt(argc, argv, "s:iIcbx")) != -1) {
        if (opt == 's' && nstats < 8) {
            if ((stats[nstats++] = open(optarg, O_RDONLY | O_CLOEXEC)) < 0) { perror(optarg); return 1; }
        } else if (opt == 'c') {
            control = 1;
        } else if (opt == 'b') {
            breakdown = 1;
        } else if (opt == 'x') {
            leave_out = 1;
        } else if (opt == 'i' || opt == 'I') {
            idle = opt == 'i' ? 1 : 2;
        } else {
            fprintf(stderr, "usage: %s [-s STAT]... [-i|-I] [-c] [-x] [-b] DIR append|fallocate|overwrite BLOCK SIZE\n", argv[0]);
            return 2;
        }
    }
    if (argc - optind != 4) {
        fprintf(stderr, "usage: %s [-s STAT]... [-i|-I] [-c] [-x] [-b] DIR append|fallocate|overwrite BLOCK SIZE\n", argv[0]);
        return 2;
    }
    const char *dir = argv[optind], *layout = argv[optind + 1];
    long bs = atol(argv[optind + 2]), size = atol(argv[optind + 3]);
    int append = !strcmp(layout, "append"), falloc = !strcmp(layout, "fallocate"), over = !strcmp(layout, "overwrite");
    if (!(append || falloc || over) || bs < 1 || size < bs) {
        fprintf(stderr, "bad layout, block or size\n");
        return 2;
    }
    long rounds = size / bs;
    char path[4096];
    snprintf(path, sizeof path, "%s/.bench-loop-%d.probe", dir, (int)getpid());
    int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
    if (fd < 0) { fprintf(stderr, "open %s: %s\n", path, strerror(errno)); return 1; }
    char cpath[4200];
    snprintf(cpath, sizeof cpath, "%s-control", path);
    int cfd = control ? open(cpath, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600) : -1;
    if (control && cfd < 0) { fprintf(stderr, "open %s: %s\n", cpath, strerror(errno)); unlink(path); return 1; }
    char *buf = malloc(bs);
    for (long i = 0; i < bs; i++) buf[i] = (char)(0x5A ^ i);
    long *sync_ns = malloc(sizeof(long) * rounds), *write_ns = malloc(sizeof(long) * rounds),
         *round_ns = malloc(sizeof(long) * rounds), *place_ns = malloc(sizeof(long) * rounds);
    long *place = malloc(sizeof(long) * rounds);
    int rc = 0;
    if (falloc && fallocate(fd, 0, 0, size) != 0) { perror("fallocate"); rc = 1; goto out; }
    if (over) {
        for (long i = 0; i < rounds; i++) {
            if (pwrite(fd, buf, bs, i * bs) != bs) { perror("pwrite"); rc = 1; goto out; }
        }
        if (fsync(fd) != 0) { perror("fsync"); rc = 1; goto out; }
    }
    long stretch_start = now_ns(), stretch_first = 0;
    for (long i = 0; i < rounds; i++) {
        place[i] = i - stretch_first + 1;
        long t0 = now_ns();
        ssize_t n = over ? pwrite(fd, buf, bs, i * bs) : write(fd, buf, bs);
        long t1 = now_ns();
        if (n != bs) { perror("write"); rc = 1; goto out; }
        read_stats(stats, nstats);
        long s0 = now_ns();
        if (fdatasync(fd) != 0) { perror("fdatasync"); rc = 1; goto out; }
        long s1 = now_ns();
        read_stats(stats, nstats);
        write_ns[i] = t1 - t0;
        sync_ns[i] = s1 - s0;
        round_ns[i] = write_ns[i] + sync_ns[i];
        long stretch = now_ns() - stretch_start;
        if (idle && stretch >= 10000000L) {
            for (long k = stretch_first; control && k <= i; k++) {
                if (write(cfd, buf, bs) != bs) { perror("control write"); rc = 1; goto out; }
            }
            stretch_first = i + 1;
        }
        if (idle == 1 && stretch >= 10000000L) {
            struct timespec w = {0, stretch / 4};
            nanosleep(&w, NULL);
            stretch_start = now_ns();
        } else if (idle == 2 && stretch >= 10000000L) {
            for (long w0 = now_ns(); now_ns() - w0 < stretch;) {
                __asm__ volatile("" ::: "memory");
            }
            stretch_start = now_ns();
        }
    }
    char line[512] = "";
    if (breakdown) {
        /* The rounds by their place in their stretch, all of them; pct sorts only place_ns here. */
        static const long from[] = {1, 2, 3, 4, 11}, to[] = {1, 2, 3, 10, -1};
        int at = snprintf(line, sizeof line, "by-place");
        for (int p = 0; p < 5; p++) {
            long n = 0;
            for (long i = 0; i < rounds; i++) {
                if (place[i] >= from[p] && (to[p] < 0 || place[i] <= to[p])) place_ns[n++] = sync_ns[i];
            }
            char name[48];
            if (from[p] == to[p]) snprintf(name, sizeof name, "%ld", from[p]);
            else if (to[p] < 0) snprintf(name, sizeof name, "%ld+", from[p]);
            else snprintf(name, sizeof name, "%ld-%ld", from[p], to[p]);
            at += snprintf(line + at, sizeof line - at, " %s:%ld %.1f %.1f", name, n, n ? pct(place_ns, n, 50) : 0.0 / 0.0,
                           n ? pct(place_ns, n, 99) : 0.0 / 0.0);
        }
    }
    char line2[512] = "";
    if (breakdown) {
        /* The figures with the first K rounds after each window left out, for K from 0 to 5. */
        int at = snprintf(line2, sizeof line2, "without-first");
        for (long k = 0; k <= 5; k++) {
            long n = 0;
            for (long i = 0; i < rounds; i++) {
                if (i == place[i] - 1 || place[i] > k) place_ns[n++] = sync_ns[i];
            }
            at += snprintf(line2 + at, sizeof line2 - at, " %ld:%ld %.1f %.1f", k, n, pct(place_ns, n, 50),
                           pct(place_ns, n, 99));
        }
    }
    char line3[256] = "";
    if (breakdown) {
        /* The first tenth of the rounds against the rest: what changes as the run goes on. */
        long tenth = rounds / 10 > 0 ? rounds / 10 : 1, n = 0;
        for (long i = 0; i < tenth; i++) place_ns[n++] = sync_ns[i];
        double h50 = pct(place_ns, n, 50), h99 = pct(place_ns, n, 99);
        n = 0;
        for (long i = tenth; i < rounds; i++) place_ns[n++] = sync_ns[i];
        snprintf(line3, sizeof line3, "first-tenth %.1f %.1f rest %.1f %.1f", h50, h99, n ? pct(place_ns, n, 50) : 0.0 / 0.0,
                 n ? pct(place_ns, n, 99) : 0.0 / 0.0);
    }
    long kept = rounds;
    if (leave_out) {
        kept = 0;
        for (long i = 0, end = 0, out = 0; i < rounds; i++) {
            if (place[i] == 1) {
                /* A stretch starts: it runs to the next start; after a window, its first two rounds are left out,
                   but never its last. */
                for (end = i + 1; end < rounds && place[end] != 1; end++) {
                }
                out = i == 0 ? 0 : (end - i - 1 < 2 ? end - i - 1 : 2);
            }
            if (place[i] <= out) continue;
            sync_ns[kept] = sync_ns[i];
            write_ns[kept] = write_ns[i];
            round_ns[kept] = round_ns[i];
            kept++;
        }
    }
    printf("%.1f %.1f %.1f %.1f %.1f\n", pct(sync_ns, kept, 50), pct(sync_ns, kept, 99), pct(write_ns, kept, 50),
           pct(round_ns, kept, 50), pct(round_ns, kept, 99));
    if (breakdown) printf("%s\n%s\n%s\n", line, line2, line3);
out:
    close(fd);
    unlink(path);
    if (cfd >= 0) {
        close(cfd);
        unlink(cpath);
    }
    return rc;
}
