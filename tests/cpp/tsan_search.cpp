// ThreadSanitizer check of the search (repeated short 2- and 3-thread searches, progress callbacks,
// stop from another thread, tree reuse). Build and run from the repository root:
//   g++ -std=c++20 -O1 -g -fsanitize=thread -Icpp tests/cpp/tsan_search.cpp cpp/search/*.cpp \
//       cpp/core/*.cpp -o /tmp/tsan_search -lpthread && /tmp/tsan_search
// It must print no "WARNING: ThreadSanitizer" report.
#include "search/mcts.h"
#include <cstdio>
#include <thread>
using namespace trigon;
int main() {
    for (int side : {9, 8}) {
        Rules r; r.side = side; if (side == 8) r.colours = 7;
        Position p(r);
        search::Searcher s;
        for (int k = 0; k < 6; ++k) {
            search::Params prm; prm.max_simulations = 400; prm.threads = 2 + (k % 2); prm.seed = k;
            prm.expand_threshold = k % 3; prm.progress_every_simulations = 50;
            int calls = 0;
            auto a = s.run(p, prm, {}, [&](const search::Analysis& x) { calls += x.simulations > 0; });
            if (k == 5) { // stop from another thread
                search::Params q = prm; q.max_simulations = 0; q.max_seconds = 5;
                std::thread t([&] { std::this_thread::sleep_for(std::chrono::milliseconds(50)); s.stop(); });
                auto b = s.run(p, q);
                t.join();
                printf("stopped %d sims %ld\n", b.stopped, b.simulations);
            }
            p.play(a.best_move);  // tree reuse on the next search
            printf("side %d k %d best %d sims %ld reused %ld calls %d\n", side, k, a.best_move, a.simulations, a.reused_visits, calls);
        }
    }
}
