// native-yardstick: the same search in plain C, as a yardstick for the Java chapters on this machine.
//
//   cc -O2 -march=native -pthread -o native-yardstick lab/yardsticks/native-yardstick.c
//   ./native-yardstick MODE FILE WORKERS RUNS WARMUP [READ_BYTES]
//
// MODE   ram      scan a copy of FILE in anonymous memory on 4 KiB pages: the memory-read wall
//                 that a mapping of a page cache in small folios meets
//        ramhuge  the same copy on 2 MiB pages (MADV_HUGEPAGE), the wall for a page cache in
//                 2 MiB folios; exits 2 if the kernel gave it no 2 MiB page
//        mmap     map FILE (as chapters 6 and 9 do), each worker scans its shard, then unmap
//        pread    each worker reads its shard in pread calls of READ_BYTES (default 1m; 64k, 256k... as a
//                 chapter's --chunk) into a buffer of its own (as chapter 7)
//
// Each run is timed whole (mapping and unmapping included), after WARMUP untimed runs. A line per
// run goes to stderr; stdout gets one line for lab/yardsticks/NativeYardstick.java to read:
//   mode=M workers=W offset=O warmup_s=S,S run_s=S,S,... user_us=U,U,... system_us=U,U,... pmd_mapped_pct=P
// user_us and system_us are each timed run's CPU time, every thread's, in user space and in the
// kernel (getrusage), in microseconds, as the chapters' bill counts them. offset is that of the
// first non-zero 8-byte word, -1 if none; pmd_mapped_pct is the median share of the memory
// scanned that was mapped 2 MiB at a time (empty for pread). Exit status: 0 found,
// 1 all zeros, 2 an error (one line on stderr).
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define DEFAULT_READ_BYTES (1L << 20)
#define MAX_READ_BYTES (1L << 30)
#define PMD_BYTES (2L << 20)
#define MAX_WORKERS 4096
#define MAX_RUNS 1000

// 32 bytes as one value: the compiler turns an OR of these into vector instructions (AVX2 and up
// with -march=native); aligned(1) lets a shard start anywhere.
typedef uint64_t lanes __attribute__((vector_size(32), aligned(1)));

static const char *mode, *path;
static long size;
static int workers;
static long read_bytes = DEFAULT_READ_BYTES; // pread mode: bytes a call asks for
static const unsigned char *memory; // the RAM copy, or this run's mapping
static long lowest_hit;
static pthread_mutex_t hit_lock = PTHREAD_MUTEX_INITIALIZER;

static void fail(const char *what) {
    fprintf(stderr, "native-yardstick: %s: %s\n", what, strerror(errno));
    exit(2);
}

// The first non-zero 8-byte word in p[0, n), as an offset from p rounded down to 8, or -1.
// 128 bytes per step: four 32-byte loads ORed together, then one test of the result.
static long first_non_zero_word(const unsigned char *p, long n) {
    long i = 0;
    for (; i + 128 <= n; i += 128) {
        const lanes *v = (const lanes *)(p + i);
        lanes any = v[0] | v[1] | v[2] | v[3];
        if (any[0] | any[1] | any[2] | any[3]) {
            break; // the byte loop below finds which word
        }
    }
    for (; i < n; i++) {
        if (p[i]) {
            return i & ~7L;
        }
    }
    return -1;
}

static void report(long offset) {
    pthread_mutex_lock(&hit_lock);
    if (lowest_hit < 0 || offset < lowest_hit) {
        lowest_hit = offset; // the lowest hit, not the first to arrive
    }
    pthread_mutex_unlock(&hit_lock);
}

// Worker w's shard: contiguous, page-aligned, the last one shorter.
static void shard(long w, long *start, long *end) {
    long per = ((size + workers - 1) / workers + 4095) & ~4095L;
    *start = w * per < size ? w * per : size;
    *end = *start + per < size ? *start + per : size;
}

static void *scan_memory(void *arg) {
    long start, end;
    shard((long)arg, &start, &end);
    long hit = first_non_zero_word(memory + start, end - start);
    if (hit >= 0) {
        report(start + hit);
    }
    return NULL;
}

static void *read_and_scan(void *arg) {
    long start, end;
    shard((long)arg, &start, &end);
    int fd = open(path, O_RDONLY);
    unsigned char *buffer = aligned_alloc(4096, read_bytes);
    if (fd < 0 || buffer == NULL) {
        fail(path);
    }
    for (long offset = start; offset < end;) {
        long want = end - offset < read_bytes ? end - offset : read_bytes;
        ssize_t got = pread(fd, buffer, want, offset);
        if (got <= 0) {
            fail("pread (did the file shrink?)");
        }
        long hit = first_non_zero_word(buffer, got);
        if (hit >= 0) {
            report(offset + hit);
            break; // later bytes of this shard cannot hold a lower hit
        }
        offset += got;
    }
    free(buffer);
    close(fd);
    return NULL;
}

// The share of [from, from + bytes) resident in 2 MiB mappings, in percent, from /proc/self/smaps
// (AnonHugePages for the RAM copy, FilePmdMapped for a file mapping); -1 if nothing is resident.
static double pmd_mapped_percent(const void *from, long bytes) {
    FILE *smaps = fopen("/proc/self/smaps", "r");
    if (smaps == NULL) {
        return -1;
    }
    uintptr_t low = (uintptr_t)from, high = low + bytes;
    char line[512];
    int inside = 0;
    long rss = 0, pmd = 0, kb;
    unsigned long start, end;
    while (fgets(line, sizeof line, smaps) != NULL) {
        if (sscanf(line, "%lx-%lx ", &start, &end) == 2) { // a mapping's first line; its fields follow
            inside = start < high && low < end;
        } else if (inside && sscanf(line, "Rss: %ld kB", &kb) == 1) {
            rss += kb;
        } else if (inside && (sscanf(line, "AnonHugePages: %ld kB", &kb) == 1 || sscanf(line, "FilePmdMapped: %ld kB", &kb) == 1)) {
            pmd += kb;
        }
    }
    fclose(smaps);
    return rss == 0 ? -1 : 100.0 * pmd / rss;
}

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec * 1e-9;
}

// The CPU time this process has spent so far, every thread's, in microseconds.
static void cpu_time(long *user_us, long *system_us) {
    struct rusage usage;
    if (getrusage(RUSAGE_SELF, &usage) != 0) {
        fail("getrusage");
    }
    *user_us = usage.ru_utime.tv_sec * 1000000L + usage.ru_utime.tv_usec;
    *system_us = usage.ru_stime.tv_sec * 1000000L + usage.ru_stime.tv_usec;
}

// One whole search; returns its seconds, and its CPU time in *user_us and *system_us, without the
// time spent reading smaps (*pmd gets that figure).
static double one_run(int is_mapped, double *pmd, long *user_us, long *system_us) {
    lowest_hit = -1;
    long user_start, system_start, user_untimed = 0, system_untimed = 0;
    cpu_time(&user_start, &system_start);
    double start = now(), untimed = 0;
    int fd = -1;
    if (is_mapped) {
        fd = open(path, O_RDONLY);
        memory = size == 0 ? NULL : mmap(NULL, size, PROT_READ, MAP_SHARED, fd, 0);
        if (fd < 0 || memory == MAP_FAILED) {
            fail(path);
        }
    }
    pthread_t threads[MAX_WORKERS];
    int reads = strcmp(mode, "pread") == 0;
    for (long w = 0; w < workers; w++) {
        if (pthread_create(&threads[w], NULL, reads ? read_and_scan : scan_memory, (void *)w) != 0) {
            fail("pthread_create");
        }
    }
    for (long w = 0; w < workers; w++) {
        pthread_join(threads[w], NULL);
    }
    if (is_mapped) {
        long user_before, system_before, user_after, system_after;
        cpu_time(&user_before, &system_before);
        double before = now();
        *pmd = pmd_mapped_percent(memory, size);
        untimed = now() - before;
        cpu_time(&user_after, &system_after);
        user_untimed = user_after - user_before;
        system_untimed = system_after - system_before;
        if (size > 0) {
            munmap((void *)memory, size); // tearing down the page tables is part of the run, as in the chapters
        }
        close(fd);
    }
    double elapsed = now() - start - untimed;
    long user_end, system_end;
    cpu_time(&user_end, &system_end);
    *user_us = user_end - user_start - user_untimed;
    *system_us = system_end - system_start - system_untimed;
    return elapsed;
}

// The RAM copy: anonymous memory on a 2 MiB boundary, advised before the first touch, filled from FILE.
static void copy_into_memory(int huge, double *pmd) {
    long rounded = (size + PMD_BYTES - 1) / PMD_BYTES * PMD_BYTES;
    if (rounded == 0) {
        rounded = PMD_BYTES;
    }
    unsigned char *mapping = mmap(NULL, rounded + PMD_BYTES, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (mapping == MAP_FAILED) {
        fail("mmap of the in-memory copy");
    }
    unsigned char *aligned = (unsigned char *)(((uintptr_t)mapping + PMD_BYTES - 1) & ~(uintptr_t)(PMD_BYTES - 1));
    if (madvise(aligned, rounded, huge ? MADV_HUGEPAGE : MADV_NOHUGEPAGE) != 0) {
        fail("madvise");
    }
    memset(aligned, 0, rounded); // every page really there: untouched memory reads as the one shared zero page
    int fd = open(path, O_RDONLY);
    if (fd < 0) {
        fail(path);
    }
    for (long offset = 0; offset < size;) {
        ssize_t got = pread(fd, aligned + offset, size - offset, offset);
        if (got <= 0) {
            fail("pread (did the file shrink?)");
        }
        offset += got;
    }
    close(fd);
    memory = aligned;
    *pmd = pmd_mapped_percent(aligned, rounded);
    if (huge && *pmd <= 0) {
        fprintf(stderr, "native-yardstick: the kernel gave the in-memory copy no 2 MiB page (see /sys/kernel/mm/transparent_hugepage/enabled)\n");
        exit(2);
    }
}

static int by_value(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static void print_seconds(const char *key, const double *seconds, int count) {
    printf(" %s=", key);
    for (int i = 0; i < count; i++) {
        printf(i == 0 ? "%.6f" : ",%.6f", seconds[i]);
    }
}

static void print_micros(const char *key, const long *micros, int count) {
    printf(" %s=", key);
    for (int i = 0; i < count; i++) {
        printf(i == 0 ? "%ld" : ",%ld", micros[i]);
    }
}

int main(int argc, char **argv) {
    if (argc != 6 && argc != 7) {
        fprintf(stderr, "usage: native-yardstick ram|ramhuge|mmap|pread FILE WORKERS RUNS WARMUP [READ_BYTES]\n");
        return 2;
    }
    if (argc == 7) {
        char *unit;
        long count = strtol(argv[6], &unit, 10);
        int shift = strcmp(unit, "k") == 0 ? 10 : strcmp(unit, "m") == 0 ? 20 : 0;
        read_bytes = count > 0 && count <= MAX_READ_BYTES >> shift ? count << shift : 0; // 0: refused below
        if ((*unit != '\0' && shift == 0) || read_bytes < 4096 || read_bytes % 4096 != 0) {
            fprintf(stderr, "native-yardstick: READ_BYTES must be a multiple of 4096 from 4k to 1024m, like 64k or 1m, not '%s'\n", argv[6]);
            return 2;
        }
    }
    mode = argv[1];
    path = argv[2];
    workers = atoi(argv[3]);
    int runs = atoi(argv[4]), warmup = atoi(argv[5]);
    int in_memory = strcmp(mode, "ram") == 0 || strcmp(mode, "ramhuge") == 0, is_mapped = strcmp(mode, "mmap") == 0;
    if (!in_memory && !is_mapped && strcmp(mode, "pread") != 0) {
        fprintf(stderr, "native-yardstick: no mode '%s' (ram, ramhuge, mmap or pread)\n", mode);
        return 2;
    }
    if (workers < 1 || workers > MAX_WORKERS || runs < 1 || runs > MAX_RUNS || warmup < 0 || warmup > MAX_RUNS) {
        fprintf(stderr, "native-yardstick: WORKERS must be 1 to %d, RUNS 1 to %d, WARMUP 0 to %d\n", MAX_WORKERS, MAX_RUNS, MAX_RUNS);
        return 2;
    }
    struct stat file;
    if (stat(path, &file) != 0) {
        fail(path);
    }
    size = file.st_size;
    double pmd = -1, pmds[MAX_RUNS], seconds[MAX_RUNS], warmups[MAX_RUNS];
    long users[MAX_RUNS], systems[MAX_RUNS], user_us, system_us;
    if (in_memory) {
        copy_into_memory(strcmp(mode, "ramhuge") == 0, &pmd);
    }
    long answer = -2;
    for (int i = 0; i < warmup + runs; i++) {
        double elapsed = one_run(is_mapped, &pmd, &user_us, &system_us);
        if (answer != -2 && lowest_hit != answer) {
            fprintf(stderr, "native-yardstick: runs disagree: offset %ld, then %ld\n", answer, lowest_hit);
            return 2;
        }
        answer = lowest_hit;
        int timed = i >= warmup;
        (timed ? seconds : warmups)[timed ? i - warmup : i] = elapsed;
        if (timed) {
            pmds[i - warmup] = pmd;
            users[i - warmup] = user_us;
            systems[i - warmup] = system_us;
        }
        fprintf(stderr, "  %s %d: %.4f s  %.0f MB/s  offset %ld\n", timed ? "run" : "warm-up", (timed ? i - warmup : i) + 1,
                elapsed, size / elapsed / 1e6, lowest_hit);
    }
    printf("mode=%s workers=%d offset=%ld", mode, workers, answer);
    print_seconds("warmup_s", warmups, warmup);
    print_seconds("run_s", seconds, runs);
    print_micros("user_us", users, runs);
    print_micros("system_us", systems, runs);
    printf(" pmd_mapped_pct=");
    if (strcmp(mode, "pread") != 0 && pmd >= 0) {
        qsort(pmds, runs, sizeof pmds[0], by_value);
        printf("%.1f", runs % 2 ? pmds[runs / 2] : (pmds[runs / 2 - 1] + pmds[runs / 2]) / 2);
    }
    printf("\n");
    return answer >= 0 ? 0 : 1;
}
