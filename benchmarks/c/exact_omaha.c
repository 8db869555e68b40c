/* The limit for omaha-equity's fixed-hand kernels: our own algorithm written in C.
 *
 * Reads the rows omaha-equity builds for a deal (benchmarks/c_limit.py writes them; layout
 * below), so it computes exactly what the Python kernels compute, and times two things:
 *
 *   exact        every preflop board (5 cards dealt from the undealt deck) in nested
 *                ascending loops, the rank-multiset index, packed suit masks and counts and
 *                the low mask kept incremental per loop level; each player's high value is
 *                max(high row[index], flush row[suit with 3+ cards][its mask]), the low value
 *                low row[low mask]; each board adds one to the tally of its outcome (bit p:
 *                player p wins high; bit players + p: player p wins low), as
 *                omaha_equity/equity/_kernels.py:enumerate_boards does.
 *   monte-carlo  sample_boards' algorithm: chunks of 65,536 samples, each with its own
 *                SplitMix64 stream from (seed, chunk), a partial Fisher-Yates shuffle of the
 *                chunk's copy of the deck (Lemire's multiply-shift), the pot split in pot units
 *                and every player's counters and squared shares per sample.
 *
 * Usage: exact_omaha ROWS_FILE exact|monte-carlo REPEATS [SAMPLES SEED]
 * Threads: OpenMP (OMP_NUM_THREADS) when built with -fopenmp, else one.
 * Prints "ns_per_player_board <best of REPEATS>" (wall) and "cpu_ns_per_player_board" (CPU time of
 * the process, all threads), then the results: exact, "outcome KEY COUNT"
 * lines, "has_low P COUNT" lines and "equity P FRACTION"; Monte Carlo, "equity P FRACTION".
 *
 * ROWS_FILE: little-endian int64 header player_count, card_count, hilo, row_size, units; then
 * deck (card_count int8, in the kernels' order), colex (5 x 13 int32), high_rows
 * (player_count x row_size int32), flush_rows (player_count x 4 x 8192 int32), low_rows
 * (player_count x 256 int16).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#ifdef _OPENMP
#include <omp.h>
#endif

#define MAX_PLAYERS 11
#define SUIT_MASKS 8192
#define LOW_MASKS 256
#define CHUNK_SIZE 65536

static int64_t player_count, card_count, hilo, row_size, units;
static int8_t deck[52];
static int32_t colex[5][13];
static int32_t *high_rows, *flush_rows;
static int16_t *low_rows;

static void fail(const char *message) { fprintf(stderr, "exact_omaha: %s\n", message); exit(2); }

static void read_exactly(FILE *file, void *into, size_t bytes) {
    if (fread(into, 1, bytes, file) != bytes) fail("rows file too short");
}

static void read_rows(const char *path) {
    FILE *file = fopen(path, "rb");
    if (!file) fail("cannot open the rows file");
    int64_t header[5];
    read_exactly(file, header, sizeof header);
    player_count = header[0]; card_count = header[1]; hilo = header[2]; row_size = header[3]; units = header[4];
    if (player_count < 2 || player_count > MAX_PLAYERS || card_count < 5 || card_count > 52 || row_size != 6188)
        fail("expected a preflop deal of 2..11 players");
    read_exactly(file, deck, card_count);
    read_exactly(file, colex, sizeof colex);
    high_rows = malloc(sizeof(int32_t) * player_count * row_size);
    flush_rows = malloc(sizeof(int32_t) * player_count * 4 * SUIT_MASKS);
    low_rows = malloc(sizeof(int16_t) * player_count * LOW_MASKS);
    read_exactly(file, high_rows, sizeof(int32_t) * player_count * row_size);
    read_exactly(file, flush_rows, sizeof(int32_t) * player_count * 4 * SUIT_MASKS);
    read_exactly(file, low_rows, sizeof(int16_t) * player_count * LOW_MASKS);
    fclose(file);
}

static double clock_seconds(clockid_t clock) {
    struct timespec t;
    clock_gettime(clock, &t);
    return t.tv_sec + 1e-9 * t.tv_nsec;
}

static double now(void) { return clock_seconds(CLOCK_MONOTONIC); }

/* CPU seconds of the whole process (all threads): on a busy machine, the 1-thread figure that
   does not count the time spent waiting for a core. */
static double cpu_now(void) { return clock_seconds(CLOCK_PROCESS_CPUTIME_ID); }

static inline int64_t low_rank_bit(int rank) { return rank == 12 ? 1 : rank <= 6 ? 1 << (rank + 1) : 0; }

/* ---- exact ---- */

typedef struct { int64_t index, suits, counts, flush_suit, low; } Level;

static inline Level add_card(Level level, int position, int card) {
    int rank = card >> 2, suit = card & 3;
    level.index += colex[position][rank];
    level.suits |= (int64_t)1 << (16 * suit + rank);
    level.counts += (int64_t)1 << (8 * suit);
    if (((level.counts >> (8 * suit)) & 0xFF) >= 3) level.flush_suit = suit;
    level.low |= low_rank_bit(rank);
    return level;
}

static inline void score(Level board, int64_t *tally, int64_t *has_low) {
    int32_t high[MAX_PLAYERS], low[MAX_PLAYERS], best_high = 0, best_low = 0;
    int64_t flush_mask = (board.suits >> (16 * board.flush_suit)) & 0x1FFF, key = 0;
    for (int p = 0; p < player_count; p++) {
        int32_t value = high_rows[p * row_size + board.index];
        int32_t flush = flush_rows[(p * 4 + board.flush_suit) * SUIT_MASKS + flush_mask];
        high[p] = value > flush ? value : flush;
        if (high[p] > best_high) best_high = high[p];
    }
    for (int p = 0; p < player_count; p++) key |= (int64_t)(high[p] == best_high) << p;
    if (hilo) {
        for (int p = 0; p < player_count; p++) {
            low[p] = low_rows[p * LOW_MASKS + board.low];
            has_low[p] += low[p] != 0;
            if (low[p] > best_low) best_low = low[p];
        }
        if (best_low != 0)
            for (int p = 0; p < player_count; p++) key |= (int64_t)(low[p] == best_low) << (player_count + p);
    }
    tally[key]++;
}

static void enumerate(int64_t *tally, int64_t *has_low, int64_t tally_size) {
    int n = (int)card_count;
    memset(tally, 0, sizeof(int64_t) * tally_size);
    memset(has_low, 0, sizeof(int64_t) * player_count);
#pragma omp parallel
    {
        int64_t *my_tally = calloc(tally_size, sizeof(int64_t));
        int64_t my_has_low[MAX_PLAYERS] = {0};
        Level start = {0, 0, 0, 0, 0};
#pragma omp for schedule(dynamic, 1)
        for (int a = 0; a < n - 4; a++) {
            Level l1 = add_card(start, 0, deck[a]);
            for (int b = a + 1; b < n - 3; b++) {
                Level l2 = add_card(l1, 1, deck[b]);
                for (int c = b + 1; c < n - 2; c++) {
                    Level l3 = add_card(l2, 2, deck[c]);
                    for (int d = c + 1; d < n - 1; d++) {
                        Level l4 = add_card(l3, 3, deck[d]);
                        for (int e = d + 1; e < n; e++) score(add_card(l4, 4, deck[e]), my_tally, my_has_low);
                    }
                }
            }
        }
#pragma omp critical
        {
            for (int64_t k = 0; k < tally_size; k++) tally[k] += my_tally[k];
            for (int p = 0; p < player_count; p++) has_low[p] += my_has_low[p];
        }
        free(my_tally);
    }
}

/* The pot split of one outcome key, as omaha_equity.pots.split_pot: shares in pot units. */
static void key_shares(int64_t key, int64_t *shares) {
    int high_winners = 0, low_winners = 0;
    for (int p = 0; p < player_count; p++) {
        high_winners += (key >> p) & 1;
        low_winners += (key >> (player_count + p)) & 1;
    }
    int64_t high_pot = low_winners ? units / 2 : units;
    for (int p = 0; p < player_count; p++) {
        shares[p] = ((key >> p) & 1) ? high_pot / high_winners : 0;
        if ((key >> (player_count + p)) & 1) shares[p] += (units - high_pot) / low_winners;
    }
}

static int run_exact(int repeats) {
    int64_t tally_size = (int64_t)1 << (hilo ? 2 * player_count : player_count);
    int64_t *tally = malloc(sizeof(int64_t) * tally_size), has_low[MAX_PLAYERS];
    double best = 1e30, best_cpu = 1e30;
    for (int r = 0; r < repeats; r++) {
        double started = now(), cpu_started = cpu_now();
        enumerate(tally, has_low, tally_size);
        double seconds = now() - started, cpu_seconds = cpu_now() - cpu_started;
        if (seconds < best) best = seconds;
        if (cpu_seconds < best_cpu) best_cpu = cpu_seconds;
    }
    int64_t boards = 0, equity[MAX_PLAYERS] = {0}, shares[MAX_PLAYERS];
    for (int64_t key = 0; key < tally_size; key++) boards += tally[key];
    printf("ns_per_player_board %.3f\n", best * 1e9 / ((double)boards * player_count));
    printf("cpu_ns_per_player_board %.3f\n", best_cpu * 1e9 / ((double)boards * player_count));
    for (int64_t key = 0; key < tally_size; key++) {
        if (!tally[key]) continue;
        printf("outcome %lld %lld\n", (long long)key, (long long)tally[key]);
        key_shares(key, shares);
        for (int p = 0; p < player_count; p++) equity[p] += shares[p] * tally[key];
    }
    for (int p = 0; p < player_count; p++) printf("has_low %d %lld\n", p, (long long)has_low[p]);
    for (int p = 0; p < player_count; p++) printf("equity %d %.15f\n", p, (double)equity[p] / ((double)units * boards));
    free(tally);
    return 0;
}

/* ---- Monte Carlo ---- */

static inline uint64_t splitmix64(uint64_t *state) {
    uint64_t mixed = (*state += 0x9E3779B97F4A7C15ULL);
    mixed = (mixed ^ (mixed >> 30)) * 0xBF58476D1CE4E5B9ULL;
    mixed = (mixed ^ (mixed >> 27)) * 0x94D049BB133111EBULL;
    return mixed ^ (mixed >> 31);
}

static uint64_t chunk_random_state(uint64_t seed, uint64_t chunk) {
    uint64_t state = seed, seed_hash = splitmix64(&state);
    state = seed_hash ^ chunk * 0xD1B54A32D192ED03ULL;
    return splitmix64(&state);
}

static inline int bit_count(int64_t mask) { return __builtin_popcountll(mask); }

/* Counters per player, as omaha_equity/equity/_kernels.py (EQUITY .. SPLIT). */
enum { EQUITY, WIN, TIE, HI_WIN, HI_TIE, LO_WIN, LO_TIE, QUARTERED, HAS_LOW, EQUITY_LOW, SPLIT, STAT_COUNT };

static void sample_chunk(uint64_t seed, int64_t chunk, int64_t samples, int64_t counts[][STAT_COUNT],
                         int64_t *square_sums, int64_t *low_boards) {
    uint64_t state = chunk_random_state(seed, (uint64_t)chunk);
    int8_t cards[52];
    int32_t high[MAX_PLAYERS], low[MAX_PLAYERS];
    int64_t shares[MAX_PLAYERS];
    memcpy(cards, deck, card_count);
    for (int64_t sample = 0; sample < samples; sample++) {
        int ranks[5], suit_masks[4] = {0, 0, 0, 0};
        int64_t low_mask = 0, index = 0;
        for (int position = 0; position < 5; position++) {
            uint64_t bits = splitmix64(&state);
            int pick = position + (int)(((bits >> 32) * (uint64_t)(card_count - position)) >> 32);
            int card = cards[pick];
            cards[pick] = cards[position];
            cards[position] = (int8_t)card;
            int rank = card >> 2, at = position;
            while (at > 0 && ranks[at - 1] > rank) { ranks[at] = ranks[at - 1]; at--; }
            ranks[at] = rank;
            suit_masks[card & 3] |= 1 << rank;
            low_mask |= low_rank_bit(rank);
        }
        for (int position = 0; position < 5; position++) index += colex[position][ranks[position]];
        int flush_suit = -1;
        for (int suit = 0; suit < 4; suit++) if (bit_count(suit_masks[suit]) >= 3) flush_suit = suit;
        int32_t best_high = -1, best_low = 0;
        int high_winners = 0, low_winners = 0;
        for (int p = 0; p < player_count; p++) {
            int32_t value = high_rows[p * row_size + index];
            if (flush_suit >= 0) {
                int32_t flush = flush_rows[(p * 4 + flush_suit) * SUIT_MASKS + suit_masks[flush_suit]];
                if (flush > value) value = flush;
            }
            high[p] = value;
            if (value > best_high) { best_high = value; high_winners = 1; } else if (value == best_high) high_winners++;
            low[p] = hilo ? low_rows[p * LOW_MASKS + low_mask] : 0;
            if (low[p] != 0) {
                if (low[p] > best_low) { best_low = low[p]; low_winners = 1; } else if (low[p] == best_low) low_winners++;
            }
        }
        int64_t high_pot = low_winners ? units / 2 : units, high_share = high_pot / high_winners;
        int64_t low_share = low_winners ? (units - high_pot) / low_winners : 0;
        for (int p = 0; p < player_count; p++) {
            int high_winner = high[p] == best_high, low_winner = low_winners > 0 && low[p] == best_low;
            int64_t share = (high_winner ? high_share : 0) + (low_winner ? low_share : 0);
            shares[p] = share;
            counts[p][EQUITY] += share;
            if (share == units) counts[p][WIN]++;
            else if (share > 0) {
                if ((high_winner && high_winners > 1) || (low_winner && low_winners > 1)) counts[p][TIE]++;
                else counts[p][SPLIT]++;
            }
            if (4 * share == units) counts[p][QUARTERED]++;
            if (high_winner) counts[p][high_winners == 1 ? HI_WIN : HI_TIE]++;
            if (low_winner) {
                counts[p][low_winners == 1 ? LO_WIN : LO_TIE]++;
                counts[p][EQUITY_LOW] += low_share;
            }
            if (hilo && low[p] != 0) counts[p][HAS_LOW]++;
            square_sums[p] += shares[p] * shares[p];
        }
        *low_boards += low_winners > 0;
    }
}

static int run_monte_carlo(int repeats, int64_t sample_count, uint64_t seed) {
    int64_t chunk_total = (sample_count + CHUNK_SIZE - 1) / CHUNK_SIZE;
    int64_t counts[MAX_PLAYERS][STAT_COUNT], square_sums[MAX_PLAYERS], low_boards = 0;
    double best = 1e30, best_cpu = 1e30;
    for (int r = 0; r < repeats; r++) {
        memset(counts, 0, sizeof counts);
        memset(square_sums, 0, sizeof square_sums);
        low_boards = 0;
        double started = now(), cpu_started = cpu_now();
#pragma omp parallel
        {
            int64_t my_counts[MAX_PLAYERS][STAT_COUNT] = {{0}}, my_squares[MAX_PLAYERS] = {0}, my_low = 0;
#pragma omp for schedule(dynamic, 1)
            for (int64_t chunk = 0; chunk < chunk_total; chunk++) {
                int64_t start = chunk * CHUNK_SIZE, stop = start + CHUNK_SIZE < sample_count ? start + CHUNK_SIZE : sample_count;
                sample_chunk(seed, chunk, stop - start, my_counts, my_squares, &my_low);
            }
#pragma omp critical
            {
                for (int p = 0; p < player_count; p++) {
                    for (int s = 0; s < STAT_COUNT; s++) counts[p][s] += my_counts[p][s];
                    square_sums[p] += my_squares[p];
                }
                low_boards += my_low;
            }
        }
        double seconds = now() - started, cpu_seconds = cpu_now() - cpu_started;
        if (seconds < best) best = seconds;
        if (cpu_seconds < best_cpu) best_cpu = cpu_seconds;
    }
    printf("ns_per_player_board %.3f\n", best * 1e9 / ((double)sample_count * player_count));
    printf("cpu_ns_per_player_board %.3f\n", best_cpu * 1e9 / ((double)sample_count * player_count));
    for (int p = 0; p < player_count; p++)
        printf("equity %d %.15f\n", p, (double)counts[p][EQUITY] / ((double)units * sample_count));
    printf("low_boards %lld\n", (long long)low_boards);
    return 0;
}

int main(int argc, char **argv) {
    if (argc < 4) fail("usage: exact_omaha ROWS_FILE exact|monte-carlo REPEATS [SAMPLES SEED]");
    read_rows(argv[1]);
    int repeats = atoi(argv[3]);
    if (repeats < 1) fail("REPEATS must be at least 1");
    if (strcmp(argv[2], "exact") == 0) return run_exact(repeats);
    if (strcmp(argv[2], "monte-carlo") == 0 && argc == 6)
        return run_monte_carlo(repeats, atoll(argv[4]), strtoull(argv[5], NULL, 10));
    fail("expected exact or monte-carlo SAMPLES SEED");
    return 2;
}
