#include "engine/exec/row_memory.h"

#include <algorithm>
#include <vector>

namespace levelql {

size_t HeapBytes(size_t n) {
  return n == 0 ? 0 : std::max<size_t>(32, (n + 8 + 15) & ~size_t{15});
}

size_t ValueHeapBytes(const Value& v) {
  switch (v.type()) {
    case Type::kText:
    case Type::kBlob: {
      const size_t capacity = v.text().capacity();
      return capacity > 15 ? HeapBytes(capacity + 1) : 0;  // beyond SSO
    }
    case Type::kList: {
      // make_shared: control block and vector in one allocation.
      size_t n = HeapBytes(16 + sizeof(std::vector<Value>)) +
                 HeapBytes(v.list().capacity() * sizeof(Value));
      for (const Value& e : v.list()) n += ValueHeapBytes(e);
      return n;
    }
    default:
      return 0;
  }
}

size_t RowHeapBytes(const Row& row) {
  size_t n = HeapBytes(row.capacity() * sizeof(Value));
  for (const Value& v : row) n += ValueHeapBytes(v);
  return n;
}

}  // namespace levelql
