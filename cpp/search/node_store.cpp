#include "search/node_store.h"

#include <algorithm>
#include <new>

namespace trigon::search {

void NodeStore::reset(std::size_t capacity) {
    capacity_ = std::max<std::size_t>(capacity, 2);
    chunks_.clear();
    chunks_.resize(capacity_ / kChunkSize + 2);
    allocated_chunks_ = 0;
    used_ = 1;  // index 0 is never a node: first_child == 0 means "leaf"
    chunks_[0] = std::make_unique<Node[]>(kChunkSize);
    allocated_chunks_ = 1;
}

std::uint32_t NodeStore::alloc(std::uint32_t n) {
    std::lock_guard<std::mutex> lock(mutex_);
    std::size_t start = used_.load(std::memory_order_relaxed);
    // A block never straddles two chunks.
    if ((start & (kChunkSize - 1)) + n > kChunkSize) start = (start | (kChunkSize - 1)) + 1;
    if (start + n > capacity_ || start + n >= kExpanding) return 0;
    const std::size_t chunk = (start + n - 1) >> kChunkBits;
    for (std::size_t have = allocated_chunks_.load(); have <= chunk; have = allocated_chunks_.load()) {
        try {
            chunks_[have] = std::make_unique<Node[]>(kChunkSize);
        } catch (const std::bad_alloc&) {
            return 0;  // out of memory before the node budget: the tree is full, the search goes on
        }
        allocated_chunks_.store(have + 1);
    }
    used_.store(start + n, std::memory_order_relaxed);
    return static_cast<std::uint32_t>(start);
}

std::size_t NodeStore::bytes() const { return allocated_chunks_ * kChunkSize * sizeof(Node); }

}  // namespace trigon::search
