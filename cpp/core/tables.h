// Precomputed placements of every piece on a board, shared read-only by all threads.
#pragma once

#include <array>
#include <cstdint>
#include <unordered_map>
#include <vector>

#include "bitboard.h"
#include "geometry.h"
#include "pieces.h"

namespace trigon {

constexpr int kMaxPlacements = 32768;  // 32,131 on the large board
constexpr int kNumLocalStatus = 8;     // which of a cell's 3 edge neighbours are forbidden

// A set of placement ids (one bit per placement of the board).
using MoveSet = BitSet<kMaxPlacements / 64>;

// A move set stored as the few consecutive words where it has bits.
struct SparseSet {
    std::uint32_t offset;  // into the table's word pool
    std::uint16_t first_word;
    std::uint16_t num_words;
};

// One placement: a piece in one orientation at one position. Cells sorted ascending.
struct Placement {
    std::array<std::uint16_t, kMaxPieceSize> cells;
    std::uint8_t size;
    std::uint8_t piece;
    std::uint8_t orientation;
};

class MoveTable {
public:
    explicit MoveTable(int side);

    // The table of a board, built on first use (thread-safe) and never changed.
    static const MoveTable& get(int side);

    const Geometry& geo() const { return geo_; }
    int num_placements() const { return static_cast<int>(placements_.size()); }
    const Placement& placement(int id) const { return placements_[id]; }

    // Cells covered; cells sharing an edge (forbidden to the same colour afterwards);
    // cells touching only at a vertex (where the colour may attach next).
    const Bitboard& cells_mask(int id) const { return cells_[id]; }
    const Bitboard& adj_mask(int id) const { return adj_[id]; }
    const Bitboard& attach_mask(int id) const { return attach_[id]; }
    // Alternate rule: cells around the vertices where this piece has a side (covers 3 or more of
    // the 6 triangles), forbidden to its colour; the vertices it touches; the vertices of its sides.
    const Bitboard& alt_forbid_mask(int id) const { return alt_forbid_[id]; }
    const VertexSet& touch_vertices(int id) const { return touch_[id]; }
    const VertexSet& side_vertices(int id) const { return side_[id]; }

    // Placements of `piece` covering `cell` and none of the cell's edge neighbours whose bit is
    // set in `status` (bit i = edge_neighbours(cell)[i]).
    struct Range {
        const std::uint16_t* first;
        const std::uint16_t* last;
        const std::uint16_t* begin() const { return first; }
        const std::uint16_t* end() const { return last; }
        std::size_t size() const { return static_cast<std::size_t>(last - first); }
    };
    Range at(int cell, int status, int piece) const {
        const auto& e = index_[(cell * kNumLocalStatus + status) * kNumPieces + piece];
        return {lists_.data() + e.first, lists_.data() + e.first + e.second};
    }

    // Ids [first, last) of the placements of `piece` whose lowest cell is `cell` (ids are
    // ordered by lowest cell, then piece), so each placement inside a region is found once.
    std::pair<int, int> anchored(int cell, int piece) const {
        const std::size_t i = static_cast<std::size_t>(cell) * kNumPieces + piece;
        return {anchored_[i], anchored_[i + 1]};
    }

    // The placement covering exactly these cells (any order, duplicates rejected), or -1.
    int find(const int* cells, int n) const;
    // Image of a placement under board symmetry k (0..11).
    int symmetric(int k, int id) const { return symmetric_[k][id]; }
    // Number of placements per piece (all orientations and positions).
    int piece_placements(int piece) const { return piece_count_[piece]; }

    // Placements covering a cell / having a side at a vertex, as sparse sets; all placements of
    // a piece; every placement of the board.
    const SparseSet& covers(int cell) const { return covers_[cell]; }
    const SparseSet& side_covers(int vertex) const { return side_covers_[vertex]; }
    const MoveSet& piece_set(int piece) const { return piece_sets_[piece]; }
    const MoveSet& all_placements() const { return all_placements_; }
    // dst -= s, dst |= s, dst |= (s & mask): word-range operations on a sparse set.
    void remove(MoveSet& dst, const SparseSet& s) const {
        const std::uint64_t* __restrict src = sparse_words_.data() + s.offset;
        std::uint64_t* __restrict d = dst.w + s.first_word;
        for (int i = 0; i < s.num_words; ++i) d[i] &= ~src[i];
    }
    void add_words(std::uint64_t* dst, const SparseSet& s) const {
        const std::uint64_t* __restrict src = sparse_words_.data() + s.offset;
        std::uint64_t* __restrict d = dst + s.first_word;
        for (int i = 0; i < s.num_words; ++i) d[i] |= src[i];
    }
    void add(MoveSet& dst, const SparseSet& s) const { add_words(dst.w, s); }

    // Bytes held by the table (for the benchmark's memory figure).
    std::size_t memory_bytes() const;

private:
    static std::uint64_t key(const int* sorted_cells, int n);

    const Geometry& geo_;
    std::vector<Placement> placements_;
    std::vector<Bitboard> cells_, adj_, attach_, alt_forbid_;
    std::vector<VertexSet> touch_, side_;
    std::vector<std::uint16_t> lists_;
    std::vector<std::pair<std::uint32_t, std::uint32_t>> index_;
    std::vector<std::uint16_t> anchored_;  // (cell, piece) -> first id; one past the end last
    std::unordered_map<std::uint64_t, std::uint16_t> by_key_;
    std::array<std::vector<std::uint16_t>, kNumSymmetries> symmetric_;
    std::array<int, kNumPieces> piece_count_{};
    std::vector<std::uint64_t> sparse_words_;
    std::vector<SparseSet> covers_, side_covers_;
    std::array<MoveSet, kNumPieces> piece_sets_{};
    MoveSet all_placements_{};
};

}  // namespace trigon
