// The heap memory rows hold, as malloc counts it, for operators that keep
// rows within a budget (the spilling sort, the nested-loop join).
#ifndef LEVELQL_ENGINE_EXEC_ROW_MEMORY_H_
#define LEVELQL_ENGINE_EXEC_ROW_MEMORY_H_

#include <cstddef>

#include "engine/exec/operators.h"

namespace levelql {

// What malloc takes for a request of n bytes: glibc adds an 8-byte header,
// rounds to 16 and allocates at least 32.
size_t HeapBytes(size_t n);
// The heap memory a value holds beyond its own slot.
size_t ValueHeapBytes(const Value& v);
// Heap memory a buffered row holds (its slot in the buffer is counted with
// the buffer's capacity).
size_t RowHeapBytes(const Row& row);

}  // namespace levelql

#endif  // LEVELQL_ENGINE_EXEC_ROW_MEMORY_H_
