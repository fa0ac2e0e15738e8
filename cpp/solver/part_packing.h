// The small parts' packings that bound the exhaustive search (exact_search.h): the most cells
// the pieces left can cover in a part of a reach of up to kSmallPart cells, found by a short
// exact packing on the part's own bits, and the caches that keep them (most parts outlive many
// nodes of the search).
#pragma once

#include <array>
#include <cstdint>
#include <cstring>
#include <mutex>
#include <vector>

#include "core/position.h"

namespace trigon::solver::exact_detail {

constexpr int kSmallPart = 20;                   // parts of reach up to this many cells get their best packing
static_assert(kSmallPart < 32, "a small part's cells are the bits of a 32-bit mask");
constexpr int kPackPasses = 4;                   // their packings: with pieces of at least 1, 4, 5 and 6 triangles
constexpr int kPassMinSize[kPackPasses] = {1, 4, 5, 6};
constexpr std::size_t kMaxPartCache = std::size_t{1} << 18;  // their cache's entries at most (84 bytes each)

// A small part's best packings: with any pieces, with pieces of 4 or more triangles, of 5 or more, with hexiamonds.
struct PartCovers {
    std::int16_t all = 0, big = 0, five = 0, six = 0;
};

// What a small part's best packings depend on, the cache's key.
struct PartKey {
    std::uint16_t cells[kSmallPart];   // a small part's cells, in order (the rest 0)
    std::uint32_t reach[kNumColours];  // per colour: which of them it reaches
    std::uint32_t pieces[kNumColours];  // and its pieces left that fit (0 if none reached)
};

struct PartEntry {
    PartKey key;
    PartCovers covers;
    bool valid;
};

// The small parts' cache shared by the threads of a parallel exhaustive search (each its own
// would pack the same parts again: 1.5 times the packings on four threads): direct-mapped,
// full size from the start, each entry under one of a few hundred locks.
class SharedPartCache {
public:
    SharedPartCache() : entries_(kMaxPartCache) {}

    std::size_t size() const { return entries_.size(); }

    bool find(std::size_t slot, const PartKey& key, PartCovers& out) {
        std::lock_guard<std::mutex> lock(locks_[slot % kLocks]);
        const PartEntry& e = entries_[slot];
        if (!e.valid || std::memcmp(&e.key, &key, sizeof key) != 0) return false;
        out = e.covers;
        return true;
    }

    void store(std::size_t slot, const PartKey& key, const PartCovers& covers) {
        std::lock_guard<std::mutex> lock(locks_[slot % kLocks]);
        entries_[slot] = {key, covers, true};
    }

private:
    static constexpr std::size_t kLocks = 512;
    std::vector<PartEntry> entries_;
    std::array<std::mutex, kLocks> locks_;
};

// One search's packer of small parts (one per thread: it keeps the part being packed).
class PartPacker {
public:
    explicit PartPacker(const MoveTable& t);

    // The packings go to (and come from) this cache instead of the packer's own.
    void share_cache(SharedPartCache* cache) { shared_cache_ = cache; }

    // A small part's best packings (n cells, n <= kSmallPart) by the pieces left in P of the
    // colours reaching its cells, kept in a direct-mapped cache keyed by everything they depend on.
    PartCovers covers(const Position& P, const Bitboard& part, int n, const std::array<Bitboard, kNumColours>& reaches);

private:
    // A small part's four best packings: its placements listed once (packs_), then one
    // cover_part per smallest piece size, each stopping at the one before's best.
    PartCovers pack_part(const Position& P, const Bitboard& part, int n, const std::array<Bitboard, kNumColours>& reaches);

    // The best packing of a small part (best_cover_, stopping at cap): its lowest open cell is
    // either left empty or covered by a placement anchored there (packs_), of any colour reaching
    // all its cells, each colour's piece once, no two pieces of a colour sharing an edge (a part
    // only one colour reaches is seldom filled: its pieces must be apart). Other rules are left
    // out: a bound is all it needs. Masks are the part's cells as bits (pack_part).
    void cover_part(std::uint32_t done, std::uint32_t full, int covered, int cap,
                    std::array<std::uint32_t, kNumColours>& used, std::array<std::uint32_t, kNumColours>& own);

    // A small part's placements, its cells as bits: cells, the cells at an edge, the piece, the colours that may use it.
    struct LocalPlacement {
        std::uint32_t cells, adj;
        std::uint8_t piece, colours;
    };

    const MoveTable& t_;
    int size_[kNumPieces] = {};
    SharedPartCache* shared_cache_ = nullptr;
    std::vector<PartEntry> part_cache_;  // direct-mapped, grown (and emptied) when crowded
    std::size_t evicted_ = 0;           // entries overwritten since it last grew
    std::uint32_t no_bigger_[kSmallPart + 1] = {};  // per part size: the pieces no bigger than it
    std::vector<LocalPlacement> packs_;      // pack_part's placements inside the part, by lowest bit
    int pack_first_[kSmallPart + 1] = {};    // and where each bit's start
    std::vector<std::int8_t> local_bit_;     // per board cell: its bit in the part being packed (-1 outside)
    // Per pass: the most triangles, at most v, that pieces of its least size or more add up to.
    int most_sum_[kPackPasses][kSmallPart + 1] = {};
    int best_cover_ = 0;                     // cover_part's best so far
    int pass_ = 0;                           // and its pass (kPassMinSize)
};

// (Inline: it runs for every small part at every node of the search; pack_part only on a miss.)
inline PartCovers PartPacker::covers(const Position& P, const Bitboard& part, int n, const std::array<Bitboard, kNumColours>& reaches) {
    PartKey key{};
    int k = 0;
    part.for_each([&](int x) { key.cells[k++] = static_cast<std::uint16_t>(x); });
    const std::uint32_t fits = no_bigger_[n];  // the pieces no bigger than the part
    std::uint64_t h = 0x9E3779B97F4A7C15ull * (key.cells[0] + 1) + static_cast<std::uint64_t>(n);
    for (int c = 0; c < kNumColours; ++c) {
        const Bitboard in = reaches[c] & part;  // (most parts a colour reaches whole or not at all)
        if (in == part) {
            key.reach[c] = (1u << n) - 1;
        } else if (in.any()) {
            for (int i = 0; i < n; ++i) key.reach[c] |= static_cast<std::uint32_t>(in.test(key.cells[i])) << i;
        }
        key.pieces[c] = key.reach[c] ? P.pieces_left(c) & fits : 0;
        h = (h ^ (static_cast<std::uint64_t>(key.reach[c]) << 32 ^ key.pieces[c])) * 0xBF58476D1CE4E5B9ull;
    }
    for (int i = 1; i < n; ++i) h = (h ^ key.cells[i]) * 0x94D049BB133111EBull;
    if (shared_cache_) {
        const std::size_t slot = (h ^ h >> 29) & (shared_cache_->size() - 1);
        PartCovers out;
        if (!shared_cache_->find(slot, key, out)) {
            out = pack_part(P, part, n, reaches);
            shared_cache_->store(slot, key, out);
        }
        return out;
    }
    if (part_cache_.empty() || evicted_ > 2 * part_cache_.size()) {  // start small, grow when crowded
        const std::size_t size = part_cache_.empty() ? std::size_t{1} << 12 : std::min(part_cache_.size() * 2, kMaxPartCache);
        part_cache_.assign(size, PartEntry{});
        evicted_ = 0;
    }
    PartEntry& e = part_cache_[(h ^ h >> 29) & (part_cache_.size() - 1)];
    if (e.valid && std::memcmp(&e.key, &key, sizeof key) == 0) return e.covers;
    if (e.valid && part_cache_.size() < kMaxPartCache) ++evicted_;
    const PartCovers out = pack_part(P, part, n, reaches);
    e = {key, out, true};
    return out;
}

}  // namespace trigon::solver::exact_detail
