// The search tree's memory: nodes of 24 bytes in chunks that never move, children of a node
// contiguous, a bounded budget (mcts.h grows its tree here).
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <vector>

#include "core/position.h"

namespace trigon::search {

constexpr std::uint32_t kExpanding = 0xFFFFFFFFu;  // a node's first_child while a worker expands it
constexpr float kValueScale = 2048.0f;  // fixed-point unit of value sums (1/2048)

struct Node {
    // Sum of values, for the side of the colour that played `move`, in units of 1/kValueScale:
    // integer adds are exact and cheaper than a float compare-exchange; 64 bits never overflow
    // (32 bits did after 2M visits of one node, minutes of a long analysis).
    std::atomic<std::uint64_t> value_sum{0};
    std::atomic<std::uint32_t> first_child{0};  // 0: leaf; kExpanding: being expanded
    std::atomic<std::uint32_t> visits{0};
    float prior = 0.5f;
    std::uint16_t move = kPass;
    std::uint16_t num_children = 0;
};
static_assert(sizeof(Node) == 24, "a node is 24 bytes: memory per node is documented");

// Nodes in fixed chunks that never move; children of a node are contiguous. Bounded.
class NodeStore {
public:
    static constexpr int kChunkBits = 18;
    static constexpr std::uint32_t kChunkSize = 1u << kChunkBits;

    void reset(std::size_t capacity);
    // First index of n contiguous new nodes, or 0 when the budget is spent.
    std::uint32_t alloc(std::uint32_t n);
    Node& operator[](std::uint32_t i) { return chunks_[i >> kChunkBits][i & (kChunkSize - 1)]; }
    const Node& operator[](std::uint32_t i) const { return chunks_[i >> kChunkBits][i & (kChunkSize - 1)]; }
    std::size_t used() const { return used_.load(std::memory_order_relaxed); }
    std::size_t capacity() const { return capacity_; }
    std::size_t bytes() const;

private:
    std::vector<std::unique_ptr<Node[]>> chunks_;
    std::mutex mutex_;
    std::atomic<std::size_t> used_{0};  // read by snapshots while workers allocate
    std::size_t capacity_ = 0;
    std::atomic<std::size_t> allocated_chunks_{0};  // (read by bytes() from other threads)
};

}  // namespace trigon::search
