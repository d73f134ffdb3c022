/* Shut the Box solved by a hand-written C program: the reference for how fast it can be done.

   Usage: shutbox TILES DICE FACES ONE_DIE MODE
     TILES    the tile values, comma-separated (e.g. 1,2,3,4,5,6,7,8,9)
     DICE     number of dice usually rolled
     FACES    faces of each die (fair)
     ONE_DIE  never | max6 | sum6 | always: when one die may be rolled instead
     MODE     choice | forced: the player picks one or DICE dice, or must roll one

   Prints one JSON line: value (the chance of shutting the box under optimal play, a double),
   states (the memoized positions: sets of open tiles before a roll) and seconds (the solve).

   A memoized recursion over the bit mask of open tiles before a roll, computing the best
   move on the fly: for each position, every subset of its open tiles whose sum some roll can
   reach is enumerated once (depth-first, pruned by the largest roll), keeping per total the
   best value after shutting it. It shares no code with mdp; benchmarks/run.py compiles it
   with the system's cc -O2 at run time. */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define MAX_TILES 30
#define MAX_TOTAL 512

static int n, tiles[MAX_TILES], dice, faces, one_die, forced;
static double normal[MAX_TOTAL], single[MAX_TOTAL];
static int normal_max, single_max;
static double *memo;
static long positions;

static double win(unsigned mask);

/* best[t]: the best value over subsets of `mask` with sum t, found so far. */
/* best[t]: the best value over subsets of `mask` with sum t, for the totals t that can be
   rolled (usable[t]); subsets with other sums are extended but not valued. */
static void subsets(unsigned mask, int from, unsigned chosen, int sum, int limit,
                    const char *usable, double *best)
{
    for (int i = from; i < n; i++) {
        int s = sum + tiles[i];
        if (!(mask >> i & 1u) || s > limit)
            continue;
        unsigned with = chosen | 1u << i;
        if (usable[s]) {
            double v = win(mask & ~with);
            if (v > best[s])
                best[s] = v;
        }
        subsets(mask, i + 1, with, s, limit, usable, best);
    }
}

static double expected(const double *dist, int hi, const double *best)
{
    double e = 0.0;
    for (int t = 0; t <= hi; t++)
        if (dist[t] > 0.0)
            e += dist[t] * best[t];
    return e;
}

static double win(unsigned mask)
{
    if (memo[mask] >= 0.0)
        return memo[mask];
    positions++;
    if (mask == 0)
        return memo[mask] = 1.0;
    int allowed = 0, open_sum = 0, open_max = 0;
    for (int i = 0; i < n; i++)
        if (mask >> i & 1u) {
            open_sum += tiles[i];
            if (tiles[i] > open_max)
                open_max = tiles[i];
        }
    if (dice > 1)
        allowed = one_die == 3 || (one_die == 1 && open_max <= 6) || (one_die == 2 && open_sum <= 6);
    int limit = (allowed && forced) ? single_max : normal_max;
    if (allowed && !forced && single_max > limit)
        limit = single_max;
    double best[MAX_TOTAL];
    char usable[MAX_TOTAL] = {0};
    memset(best, 0, sizeof(double) * (limit + 1)); /* no legal move: lost, 0 */
    for (int t = 0; t <= limit; t++)
        usable[t] = (!(allowed && forced) && t <= normal_max && normal[t] > 0.0) ||
                    (allowed && t <= single_max && single[t] > 0.0);
    subsets(mask, 0, 0, 0, limit, usable, best);
    double v;
    if (!allowed)
        v = expected(normal, normal_max, best);
    else if (forced)
        v = expected(single, single_max, best);
    else {
        double a = expected(normal, normal_max, best), b = expected(single, single_max, best);
        v = a > b ? a : b;
    }
    memo[mask] = v;
    return v;
}

/* The distribution of the total of k fair dice of `faces` faces. */
static int distribution(int k, double *dist)
{
    double cur[MAX_TOTAL] = {0}, next[MAX_TOTAL];
    cur[0] = 1.0;
    int hi = 0;
    for (int d = 0; d < k; d++) {
        memset(next, 0, sizeof next);
        for (int t = 0; t <= hi; t++)
            for (int f = 1; f <= faces; f++)
                next[t + f] += cur[t] / faces;
        hi += faces;
        memcpy(cur, next, sizeof cur);
    }
    memcpy(dist, cur, sizeof cur);
    return hi;
}

int main(int argc, char **argv)
{
    if (argc != 6) {
        fprintf(stderr, "usage: %s TILES DICE FACES ONE_DIE MODE\n", argv[0]);
        return 2;
    }
    for (char *p = strtok(argv[1], ","); p; p = strtok(NULL, ",")) {
        if (n == MAX_TILES) {
            fprintf(stderr, "at most %d tiles\n", MAX_TILES);
            return 2;
        }
        tiles[n++] = atoi(p);
    }
    dice = atoi(argv[2]);
    faces = atoi(argv[3]);
    const char *rules[] = {"never", "max6", "sum6", "always"};
    one_die = -1;
    for (int i = 0; i < 4; i++)
        if (!strcmp(argv[4], rules[i]))
            one_die = i;
    forced = !strcmp(argv[5], "forced");
    if (one_die < 0 || dice < 1 || faces < 1 || dice * faces >= MAX_TOTAL / 2 || n < 1 ||
        (!forced && strcmp(argv[5], "choice"))) {
        fprintf(stderr, "bad arguments\n");
        return 2;
    }
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    normal_max = distribution(dice, normal);
    single_max = distribution(1, single);
    size_t size = (size_t)1 << n;
    memo = malloc(size * sizeof(double));
    if (!memo) {
        fprintf(stderr, "out of memory\n");
        return 1;
    }
    for (size_t m = 0; m < size; m++)
        memo[m] = -1.0;
    double value = win((unsigned)(size - 1));
    clock_gettime(CLOCK_MONOTONIC, &t1);
    double seconds = (t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) * 1e-9;
    printf("{\"value\": %.17g, \"states\": %ld, \"seconds\": %.6f}\n", value, positions, seconds);
    free(memo);
    return 0;
}
