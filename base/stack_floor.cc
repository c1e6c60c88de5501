#include "base/stack_floor.h"

#include <pthread.h>

#include <algorithm>
#include <cstddef>

namespace levelql {

uintptr_t StackFloor() {
  thread_local const uintptr_t floor = [] {
    pthread_attr_t attr;
    void* low = nullptr;
    size_t size = 0;
    if (pthread_getattr_np(pthread_self(), &attr) == 0) {
      pthread_attr_getstack(&attr, &low, &size);
      pthread_attr_destroy(&attr);
    }
    if (low == nullptr || size == 0) return uintptr_t{0};
    const size_t margin = std::min<size_t>(size / 4, 256 << 10);
    return reinterpret_cast<uintptr_t>(low) + margin;
  }();
  return floor;
}

}  // namespace levelql
