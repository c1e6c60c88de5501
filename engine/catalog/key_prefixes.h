// KeyPrefixes: how many leading key components each key of a sorted run
// shares with the key kept before it - what ANALYZE counts distinct
// prefixes and runs of the first component with (stats.cc,
// stats_sample.cc).
//
// Components are only skipped over (keys::SkipComponent), never decoded;
// per key one byte comparison with the kept key, and a copy of the bytes
// the next comparison needs; nothing allocated once the buffers have grown.
#ifndef LEVELQL_ENGINE_CATALOG_KEY_PREFIXES_H_
#define LEVELQL_ENGINE_CATALOG_KEY_PREFIXES_H_

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "indexes/key_codec.h"
#include "indexes/schema.h"
#include "levelql/status.h"

namespace levelql {

class KeyPrefixes {
 public:
  // Keys start with `skip` bytes (the keyspace id), then `columns`.
  KeyPrefixes(size_t skip, const std::vector<KeyColumn>* columns)
      : skip_(skip),
        columns_(columns),
        ends_(columns->size()),
        kept_ends_(columns->size()) {}

  // Walks `key`'s components. *shared: how many leading components it has
  // in common with the kept key (0 when none was kept): its prefixes of
  // shared+1 and more components are new.
  Status Read(std::string_view key, size_t* shared) {
    std::string_view rest = key.substr(skip_);
    for (size_t i = 0; i < columns_->size(); ++i) {
      LQ_RETURN_IF_ERROR(keys::SkipComponent(&rest, (*columns_)[i].direction));
      ends_[i] = key.size() - rest.size();
    }
    // Prefixes nest: the first that differs in length or bytes is found by
    // comparing the longest common one.
    size_t n = 0;
    if (has_kept_) {
      while (n < columns_->size() && ends_[n] == kept_ends_[n]) ++n;
      while (n > 0 &&
             key.compare(0, ends_[n - 1], kept_, 0, ends_[n - 1]) != 0) {
        --n;
      }
    }
    *shared = n;
    return Status::OK();
  }

  // REQUIRES: a column. The first component (its key bytes) of `read`, the
  // key last read; of the kept key.
  std::string_view First(std::string_view read) const {
    return read.substr(skip_, ends_[0] - skip_);
  }
  std::string_view KeptFirst() const {
    return std::string_view(kept_).substr(skip_, kept_ends_[0] - skip_);
  }

  // `read`, the key last read, becomes the one the next Read compares with.
  void Keep(std::string_view read) {
    kept_.assign(read.data(), columns_->empty() ? 0 : ends_.back());
    std::swap(kept_ends_, ends_);
    has_kept_ = true;
  }

 private:
  const size_t skip_;
  const std::vector<KeyColumn>* columns_;
  std::vector<size_t> ends_, kept_ends_;  // where components end
  std::string kept_;  // the kept key, up to its last counted component
  bool has_kept_ = false;
};

}  // namespace levelql

#endif  // LEVELQL_ENGINE_CATALOG_KEY_PREFIXES_H_
