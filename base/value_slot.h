// ValueSlot: writes a decoded value into an existing Value in place.
//
// Decoders refill the same row slots for every entry they read; building a
// temporary Value and moving it in costs a construction, a move and a
// destruction per value. These writes set the slot directly (a TEXT or BLOB
// slot keeps its string's capacity). Internal to levelql: the public Value
// stays immutable to its users.
#ifndef LEVELQL_BASE_VALUE_SLOT_H_
#define LEVELQL_BASE_VALUE_SLOT_H_

#include <cstdint>
#include <string>

#include "levelql/value.h"

namespace levelql {

class ValueSlot {
 public:
  // An INTEGER, BOOLEAN or TIMESTAMP (`type`) of `v`.
  static void SetInt(Value* slot, Type type, int64_t v) {
    slot->Destroy();
    slot->i_ = v;
    slot->type_ = type;
  }
  static void SetNull(Value* slot) { slot->Destroy(); }
  // Makes the slot an empty TEXT or BLOB (`type`) and returns its bytes to
  // fill.
  static std::string* SetBytes(Value* slot, Type type) {
    if (slot->holds_bytes()) {
      slot->s_.clear();
    } else {
      slot->Destroy();
      new (&slot->s_) std::string();
    }
    slot->type_ = type;
    return &slot->s_;
  }
};

}  // namespace levelql

#endif  // LEVELQL_BASE_VALUE_SLOT_H_
