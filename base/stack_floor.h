// How deep recursion may go on the calling thread: the parser, the binder
// and the expression evaluator recurse once per level of an expression, and
// a thread's stack may be small (thread pools often give 256 KiB-1 MiB).
// Each checks its frame against StackFloor() and fails with LimitExceeded
// instead of overflowing the stack.
#ifndef LEVELQL_BASE_STACK_FLOOR_H_
#define LEVELQL_BASE_STACK_FLOOR_H_

#include <cstdint>

namespace levelql {

// The lowest address recursion may reach on this thread: the stack's
// bottom plus a margin (a quarter of the stack, at most 256 KiB) for the
// frames between two checks, error paths and sanitizer overhead. 0 when
// the stack is unknown.
uintptr_t StackFloor();

// Whether the caller's frame is below StackFloor().
inline bool StackExhausted() {
  return reinterpret_cast<uintptr_t>(__builtin_frame_address(0)) < StackFloor();
}

}  // namespace levelql

#endif  // LEVELQL_BASE_STACK_FLOOR_H_
