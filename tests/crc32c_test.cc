// CRC-32C (engine/storage/crc32c.h): the standard's check values, the
// accelerated and the table code agreeing on every length and alignment,
// and a damaged table block read as Corruption, not as rows.
#include "engine/storage/crc32c.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <random>
#include <string>
#include <vector>

#include "levelql/database.h"
#include "tests/support/temp_dir.h"

namespace levelql {
namespace {

TEST(Crc32cTest, CheckValuesOfRfc3720) {
  std::string zeros(32, '\0'), ones(32, '\xff'), up(32, ' '), down(32, ' ');
  for (int i = 0; i < 32; ++i) {
    up[i] = static_cast<char>(i);
    down[i] = static_cast<char>(31 - i);
  }
  for (auto* f : {&crc32c::Extend, &crc32c::ExtendPortable}) {
    EXPECT_EQ(f(0, zeros.data(), 32), 0x8a9136aau);
    EXPECT_EQ(f(0, ones.data(), 32), 0x62a8ab43u);
    EXPECT_EQ(f(0, up.data(), 32), 0x46dd794eu);
    EXPECT_EQ(f(0, down.data(), 32), 0x113fdb5cu);
    EXPECT_EQ(f(0, "123456789", 9), 0xe3069283u);
  }
}

TEST(Crc32cTest, AcceleratedAgreesWithTableAtEveryLengthAndOffset) {
  std::mt19937 rng(7);
  std::string buf(300, '\0');
  for (char& c : buf) c = static_cast<char>(rng());
  for (size_t offset = 0; offset < 9; ++offset) {
    for (size_t n = 0; offset + n <= buf.size(); ++n) {
      ASSERT_EQ(crc32c::Extend(0, buf.data() + offset, n),
                crc32c::ExtendPortable(0, buf.data() + offset, n))
          << "offset " << offset << " length " << n;
    }
  }
  // Extending in two pieces is the CRC of the whole.
  EXPECT_EQ(
      crc32c::Extend(crc32c::Value(buf.data(), 100), buf.data() + 100, 200),
      crc32c::Value(buf.data(), 300));
}

TEST(Crc32cTest, InterleavedStreamsAgreeWithTableOnBlockSizes) {
  // From 768 bytes on, three streams of 256 bytes run at once and are
  // joined: every length around a multiple of 768, table blocks' usual
  // sizes, from any start, and continued from a CRC.
  std::mt19937 rng(11);
  std::string buf(8200, '\0');
  for (char& c : buf) c = static_cast<char>(rng());
  std::vector<size_t> lengths = {4096, 4101, 4127, 8192, 8190};
  for (size_t k = 1; k <= 10; ++k) {
    for (int d : {-9, -8, -1, 0, 1, 7, 8, 255, 256, 257}) {
      lengths.push_back(static_cast<size_t>(768 * static_cast<int>(k) + d));
    }
  }
  for (size_t offset = 0; offset < 9; ++offset) {
    for (size_t n : lengths) {
      if (offset + n > buf.size()) continue;
      ASSERT_EQ(crc32c::Extend(0, buf.data() + offset, n),
                crc32c::ExtendPortable(0, buf.data() + offset, n))
          << "offset " << offset << " length " << n;
      ASSERT_EQ(crc32c::Extend(0x12345678u, buf.data() + offset, n),
                crc32c::ExtendPortable(0x12345678u, buf.data() + offset, n))
          << "continued, offset " << offset << " length " << n;
    }
  }
}

TEST(Crc32cTest, UnmaskUndoesLevelDbsMask) {
  for (uint32_t crc : {0u, 1u, 0x8a9136aau, 0xffffffffu}) {
    const uint32_t masked = ((crc >> 15) | (crc << 17)) + 0xa282ead8u;
    EXPECT_EQ(crc32c::Unmask(masked), crc);
  }
}

// One byte flipped inside a table file's data block: the block fails its
// CRC, so the query reading it fails with Corruption naming the check.
TEST(Crc32cTest, FlippedByteInATableBlockIsCorruption) {
  testing::TempDir dir;
  const std::string path = dir.path() + "/db";
  {
    auto db = Database::Open(path, Options());
    ASSERT_TRUE(db.ok());
    ASSERT_TRUE(
        (*db)->Execute("CREATE TABLE t (id INTEGER PRIMARY KEY, s TEXT)").ok());
    std::string sql = "INSERT INTO t VALUES ";
    for (int i = 0; i < 2000; ++i) {
      sql += (i ? ", (" : "(") + std::to_string(i) + ", 'row " +
             std::to_string(i) + " " + std::string(40, 'q') + "')";
    }
    ASSERT_TRUE((*db)->Execute(sql).ok());
  }
  // Reopening writes the log into a table file.
  { ASSERT_TRUE(Database::Open(path, Options()).ok()); }
  std::string table;
  for (const auto& e : std::filesystem::directory_iterator(path)) {
    if (e.path().extension() == ".ldb" &&
        (table.empty() || e.file_size() > std::filesystem::file_size(table))) {
      table = e.path();
    }
  }
  ASSERT_FALSE(table.empty());
  {
    // Flip one letter of a row's text in the middle of the file's data.
    std::fstream f(table, std::ios::in | std::ios::out | std::ios::binary);
    std::string bytes((std::istreambuf_iterator<char>(f)), {});
    const size_t at = bytes.find("qqqq", bytes.size() / 3);
    ASSERT_NE(at, std::string::npos);
    f.seekp(static_cast<std::streamoff>(at));
    f.put('r');
  }
  auto db = Database::Open(path, Options());
  ASSERT_TRUE(db.ok());
  auto cursor = (*db)->Query("SELECT count(*), max(s) FROM t");
  Status st = cursor.ok() ? Status::OK() : cursor.status();
  if (cursor.ok()) {
    while ((*cursor)->Next()) {
    }
    st = (*cursor)->status();
  }
  EXPECT_EQ(st.code(), Status::Code::kCorruption) << st.ToString();
  EXPECT_NE(st.ToString().find("checksum mismatch"), std::string::npos)
      << st.ToString();
}

}  // namespace
}  // namespace levelql
