#include "engine/storage/rank_index.h"

#include <memory>
#include <vector>

#include "indexes/key_codec.h"

namespace levelql::ranks {
namespace {

const std::string kSentinel("\xff", 1);

bool StartsWith(std::string_view s, std::string_view prefix) {
  return s.substr(0, prefix.size()) == prefix;
}

std::string LevelPrefix(const Space& space, int level) {
  std::string p = space.nodes;
  p.push_back(static_cast<char>(level));
  return p;
}

std::string Count(int64_t n) {
  std::string out;
  keys::EncodeValue(Value::Int(n), keys::Direction::kAsc, &out);
  return out;
}

Status ReadCount(std::string_view value, int64_t* n) {
  Value v;
  LQ_RETURN_IF_ERROR(keys::DecodeValue(&value, keys::Direction::kAsc, &v));
  if (v.type() != Type::kInteger || !value.empty() || v.int_value() < 0) {
    return Status::Corruption("bad count in a ranked index node");
  }
  *n = v.int_value();
  return Status::OK();
}

// The smallest key after every key that starts with `s` is not needed: the
// smallest key after `s` itself is `s` + 00.
std::string After(std::string_view s) {
  std::string out(s);
  out.push_back('\0');
  return out;
}

// The first node at or after `suffix` on level `level`, or the (possibly
// not yet written) sentinel with count 0.
Status NodeAtOrAfter(const Space& space, int level, std::string_view suffix,
                     KvIterator* view, std::string* key, int64_t* count) {
  const std::string lp = LevelPrefix(space, level);
  view->Seek(lp + std::string(suffix));
  if (view->Valid() && StartsWith(view->key(), lp)) {
    key->assign(view->key());
    return ReadCount(view->value(), count);
  }
  LQ_RETURN_IF_ERROR(view->status());
  *key = lp + kSentinel;
  *count = 0;
  return Status::OK();
}

}  // namespace

int LevelOf(std::string_view suffix) {
  uint64_t h = 1469598103934665603ull;
  for (unsigned char c : suffix) {
    h ^= c;
    h *= 1099511628211ull;
  }
  // Murmur3's finalizer, so the low bits depend on every byte.
  h ^= h >> 33;
  h *= 0xff51afd7ed558ccdull;
  h ^= h >> 33;
  h *= 0xc4ceb9fe1a85ec53ull;
  h ^= h >> 33;
  int level = 0;
  while (level < kMaxLevel && (h & ((1u << kLevelBits) - 1)) == 0) {
    ++level;
    h >>= kLevelBits;
  }
  return level;
}

Status Insert(const Space& space, std::string_view entry_key, KvIterator* view,
              Sink* sink) {
  const std::string suffix(entry_key.substr(space.entries.size()));
  const int height = LevelOf(suffix);
  for (int level = 1; level <= kMaxLevel; ++level) {
    const std::string lp = LevelPrefix(space, level);
    std::string c_key;
    int64_t c_count = 0;
    LQ_RETURN_IF_ERROR(
        NodeAtOrAfter(space, level, suffix, view, &c_key, &c_count));
    if (level > height) {
      sink->Put(std::move(c_key), Count(c_count + 1));
      continue;
    }
    // The entry becomes a node: it splits c's range (prev, c] into
    // (prev, entry] and (entry, c]. Count the second part from the level
    // below (the entries themselves on level 1), forward from the entry.
    const std::string_view c_suffix = std::string_view(c_key).substr(lp.size());
    int64_t after = 0;
    const std::string below =
        level == 1 ? space.entries : LevelPrefix(space, level - 1);
    for (view->Seek(After(below + suffix));
         view->Valid() && StartsWith(view->key(), below); view->Next()) {
      std::string_view s = view->key().substr(below.size());
      if (s > c_suffix) break;
      if (level == 1) {
        ++after;
      } else {
        int64_t n = 0;
        LQ_RETURN_IF_ERROR(ReadCount(view->value(), &n));
        after += n;
      }
    }
    LQ_RETURN_IF_ERROR(view->status());
    if (after > c_count + 1) {
      return Status::Corruption("ranked index counts disagree with entries");
    }
    sink->Put(lp + suffix, Count(c_count + 1 - after));
    sink->Put(std::move(c_key), Count(after));
  }
  return Status::OK();
}

Status Delete(const Space& space, std::string_view entry_key, KvIterator* view,
              Sink* sink) {
  const std::string suffix(entry_key.substr(space.entries.size()));
  const int height = LevelOf(suffix);
  for (int level = 1; level <= kMaxLevel; ++level) {
    const std::string lp = LevelPrefix(space, level);
    std::string key;
    int64_t count = 0;
    LQ_RETURN_IF_ERROR(NodeAtOrAfter(space, level, suffix, view, &key, &count));
    if (level > height) {
      if (count < 1) {
        return Status::Corruption("ranked index counts disagree with entries");
      }
      sink->Put(std::move(key), Count(count - 1));
      continue;
    }
    // The entry's own node goes; the next node takes its range.
    if (key != lp + suffix) {
      return Status::Corruption("ranked index node missing for an entry");
    }
    view->Next();
    std::string next_key = lp + kSentinel;
    int64_t next_count = 0;
    if (view->Valid() && StartsWith(view->key(), lp)) {
      next_key.assign(view->key());
      LQ_RETURN_IF_ERROR(ReadCount(view->value(), &next_count));
    }
    LQ_RETURN_IF_ERROR(view->status());
    sink->Put(std::move(next_key), Count(next_count + count - 1));
    sink->Delete(std::move(key));
  }
  return Status::OK();
}

Result<int64_t> Rank(const Space& space, std::string_view key,
                     KvIterator* view) {
  if (key <= space.entries) return int64_t{0};
  // Entry suffixes all sort below the sentinel's single ff byte.
  const std::string s = StartsWith(key, space.entries)
                            ? std::string(key.substr(space.entries.size()))
                            : kSentinel;
  int64_t acc = 0;
  std::string prev;  // the last node passed (none: empty)
  for (int level = kMaxLevel; level >= 0; --level) {
    const std::string lp =
        level == 0 ? space.entries : LevelPrefix(space, level);
    for (view->Seek(prev.empty() ? lp : After(lp + prev));
         view->Valid() && StartsWith(view->key(), lp); view->Next()) {
      std::string_view ns = view->key().substr(lp.size());
      if (ns >= s) break;
      int64_t n = 1;
      if (level > 0) LQ_RETURN_IF_ERROR(ReadCount(view->value(), &n));
      acc += n;
      prev.assign(ns);
    }
    LQ_RETURN_IF_ERROR(view->status());
  }
  return acc;
}

Result<std::string> EntryAt(const Space& space, int64_t target,
                            KvIterator* view) {
  if (target < 0) return Status::NotFound("before the first entry");
  int64_t acc = 0;
  std::string prev;
  for (int level = kMaxLevel; level >= 1; --level) {
    const std::string lp = LevelPrefix(space, level);
    for (view->Seek(prev.empty() ? lp : After(lp + prev));
         view->Valid() && StartsWith(view->key(), lp); view->Next()) {
      int64_t n = 0;
      LQ_RETURN_IF_ERROR(ReadCount(view->value(), &n));
      if (acc + n > target) break;
      std::string_view ns = view->key().substr(lp.size());
      if (ns == kSentinel) return Status::NotFound("past the last entry");
      acc += n;
      prev.assign(ns);
    }
    LQ_RETURN_IF_ERROR(view->status());
  }
  for (view->Seek(prev.empty() ? space.entries : After(space.entries + prev));
       view->Valid() && StartsWith(view->key(), space.entries); view->Next()) {
    if (acc == target) return std::string(view->key());
    ++acc;
  }
  LQ_RETURN_IF_ERROR(view->status());
  return Status::NotFound("past the last entry");
}

Status Build(const Space& space, KvIterator* view, Sink* sink) {
  std::vector<int64_t> since(kMaxLevel + 1, 0);
  for (view->Seek(space.entries);
       view->Valid() && StartsWith(view->key(), space.entries); view->Next()) {
    std::string_view suffix = view->key().substr(space.entries.size());
    const int height = LevelOf(suffix);
    for (int level = 1; level <= kMaxLevel; ++level) {
      ++since[level];
      if (level <= height) {
        sink->Put(LevelPrefix(space, level) + std::string(suffix),
                  Count(since[level]));
        since[level] = 0;
      }
    }
  }
  LQ_RETURN_IF_ERROR(view->status());
  for (int level = 1; level <= kMaxLevel; ++level) {
    sink->Put(LevelPrefix(space, level) + kSentinel, Count(since[level]));
  }
  return Status::OK();
}

Status Verify(const Space& space, KvStore* store, const KvSnapshot* snapshot) {
  // One cursor per level walks the stored nodes in step with the nodes the
  // entries imply, which arrive in key order on every level.
  std::vector<std::unique_ptr<KvIterator>> nodes(kMaxLevel + 1);
  for (int level = 1; level <= kMaxLevel; ++level) {
    nodes[level] = store->NewIterator(snapshot);
    nodes[level]->Seek(LevelPrefix(space, level));
  }
  auto expect = [&](int level, std::string_view suffix,
                    int64_t count) -> Status {
    const std::string key = LevelPrefix(space, level) + std::string(suffix);
    KvIterator* it = nodes[level].get();
    if (!it->Valid() || it->key() != key) {
      LQ_RETURN_IF_ERROR(it->status());
      return Status::Corruption(
          "ranked index: level " + std::to_string(level) + " lacks a node " +
          (suffix == kSentinel ? "at its end" : "for an entry") +
          (it->Valid() && StartsWith(it->key(), LevelPrefix(space, level))
               ? " (or has one too many)"
               : ""));
    }
    int64_t stored = 0;
    LQ_RETURN_IF_ERROR(ReadCount(it->value(), &stored));
    if (stored != count) {
      return Status::Corruption(
          "ranked index: a level " + std::to_string(level) + " node counts " +
          std::to_string(stored) + " entries, the index has " +
          std::to_string(count));
    }
    it->Next();
    return Status::OK();
  };
  std::vector<int64_t> since(kMaxLevel + 1, 0);
  auto entries = store->NewIterator(snapshot);
  for (entries->Seek(space.entries);
       entries->Valid() && StartsWith(entries->key(), space.entries);
       entries->Next()) {
    std::string_view suffix = entries->key().substr(space.entries.size());
    const int height = LevelOf(suffix);
    for (int level = 1; level <= kMaxLevel; ++level) {
      ++since[level];
      if (level <= height) {
        LQ_RETURN_IF_ERROR(expect(level, suffix, since[level]));
        since[level] = 0;
      }
    }
  }
  LQ_RETURN_IF_ERROR(entries->status());
  for (int level = 1; level <= kMaxLevel; ++level) {
    LQ_RETURN_IF_ERROR(expect(level, kSentinel, since[level]));
    KvIterator* it = nodes[level].get();
    if (it->Valid() && StartsWith(it->key(), LevelPrefix(space, level))) {
      return Status::Corruption(
          "ranked index: a node past the sentinel of "
          "level " +
          std::to_string(level));
    }
  }
  return Status::OK();
}

}  // namespace levelql::ranks
