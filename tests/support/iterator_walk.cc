#include "tests/support/iterator_walk.h"

#include <gtest/gtest.h>

#include <iterator>

namespace levelql::testing {

std::string RandomKey(std::mt19937_64& rng) {
  std::string key(1, static_cast<char>('a' + rng() % 20));
  if (rng() % 3 == 0) key += static_cast<char>(rng() % 3);
  return key;
}

std::string RenderEntry(const KvIterator& it) {
  return it.Valid() ? std::string(it.key()) + "=" + std::string(it.value())
                    : "(end)";
}

std::string RenderEntry(const Map& m, Map::const_iterator it) {
  return it == m.end() ? "(end)" : it->first + "=" + it->second;
}

int RandomWalk(KvIterator* it, const Map& model, std::mt19937_64& rng,
               const std::function<std::string()>& key, int steps,
               const std::string& where) {
  static const char* kMoves[] = {"Seek",       "SeekBefore", "SeekToFirst",
                                 "SeekToLast", "Next",       "Prev"};
  auto want = model.cend();
  int moves = 0;
  for (int step = 0; step < steps; ++step) {
    const int op = static_cast<int>(rng() % 6);
    const bool valid = want != model.end();
    std::string target;
    switch (op) {
      case 0:
        target = key();
        it->Seek(target);
        want = model.lower_bound(target);
        break;
      case 1:
        target = key();
        it->SeekBefore(target);
        want = model.lower_bound(target);
        want = want == model.begin() ? model.end() : std::prev(want);
        break;
      case 2:
        it->SeekToFirst();
        want = model.begin();
        break;
      case 3:
        it->SeekToLast();
        want = model.empty() ? model.end() : std::prev(model.end());
        break;
      default:
        if (!valid) continue;  // (a move needs a place to move from)
        if (op == 4) {
          it->Next();
          ++want;
        } else {
          it->Prev();
          want = want == model.begin() ? model.end() : std::prev(want);
        }
        ++moves;
    }
    if (RenderEntry(*it) != RenderEntry(model, want)) {
      ADD_FAILURE() << where << " step " << step << ": " << kMoves[op] << " "
                    << target << " is on " << RenderEntry(*it)
                    << ", the model on " << RenderEntry(model, want);
      return -1;
    }
  }
  return moves;
}

}  // namespace levelql::testing
