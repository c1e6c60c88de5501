// Collations on real multilingual text: equality and order under binary,
// nocase, search and ICU locales, LIKE, the key ranges of LIKE 'prefix%'
// (checked against Like() over a word list), UTF-8 validation, and sort keys
// computed from several threads.
#include "indexes/collation.h"

#include <gtest/gtest.h>
#include <unicode/unistr.h>
#include <unicode/uvernum.h>

#include <algorithm>
#include <random>
#include <string>
#include <thread>
#include <vector>

namespace levelql {
namespace {

const Collation* Get(std::string_view name) {
  Result<const Collation*> c = Collation::Get(name);
  EXPECT_TRUE(c.ok()) << name << ": " << c.status().ToString();
  return c.ok() ? *c : *Collation::Get("binary");
}

std::string Key(const Collation* c, std::string_view s) {
  std::string key;
  c->SortKey(s, &key);
  return key;
}

// Sorts by SortKey bytes and renders "a < b = c", '=' for equal keys.
std::string SortedByKey(const Collation* c, std::vector<std::string> words) {
  std::stable_sort(words.begin(), words.end(),
                   [&](const std::string& a, const std::string& b) {
                     return Key(c, a) < Key(c, b);
                   });
  std::string out;
  for (size_t i = 0; i < words.size(); ++i) {
    if (i > 0) out += Key(c, words[i - 1]) == Key(c, words[i]) ? " = " : " < ";
    out += words[i];
  }
  return out;
}

// The same rendering, sorting with Compare().
std::string SortedByCompare(const Collation* c,
                            std::vector<std::string> words) {
  std::stable_sort(words.begin(), words.end(),
                   [&](const std::string& a, const std::string& b) {
                     return c->Compare(a, b) < 0;
                   });
  std::string out;
  for (size_t i = 0; i < words.size(); ++i) {
    if (i > 0) out += c->Compare(words[i - 1], words[i]) == 0 ? " = " : " < ";
    out += words[i];
  }
  return out;
}

// "==" when equal under c, else "!=" (checked both ways, key and Compare).
std::string Eq(const Collation* c, std::string_view a, std::string_view b) {
  const bool by_key = Key(c, a) == Key(c, b);
  EXPECT_EQ(by_key, c->Compare(a, b) == 0)
      << c->name() << ": " << a << " " << b;
  return by_key ? "==" : "!=";
}

bool InRange(const std::string& key, const std::string& lo,
             const std::string& hi) {
  return lo <= key && (hi.empty() || key < hi);
}

// True when PrefixBounds(prefix) holds SortKey(s).
bool Bounded(const Collation* c, std::string_view prefix, std::string_view s) {
  std::string lo, hi;
  c->PrefixBounds(prefix, &lo, &hi);
  return InRange(Key(c, s), lo, hi);
}

bool Like(const Collation* c, std::string_view text, std::string_view pattern,
          std::optional<char32_t> escape = std::nullopt) {
  return c->Like(text, pattern, escape);
}

// Words for the property tests: several scripts, case and accent variants,
// NFD spellings, ligatures, and the locale traps (Czech ch, Danish aa).
const std::vector<std::string>& Words() {
  static const std::vector<std::string> words = {
      "",
      "a",
      "A",
      "ab",
      "abc",
      "ABC",
      "abc\uFFFF",
      "abd",
      "b",
      "Bach",
      "cafe",
      "Café",
      "CAFE",
      "Cafe\u0301",
      "café au lait",
      "cafés",
      "Crème brûlée",
      "creme",
      "cesta",
      "chata",
      "Chrudim",
      "hrad",
      "ihned",
      "Čech",
      "cz",
      "Straße",
      "STRASSE",
      "strasse",
      "Strasse",
      "Strand",
      "straff",
      "ß",
      "ss",
      "ﬁsh",
      "fish",
      "Fisch",
      "İstanbul",
      "istanbul",
      "Istanbul",
      "ıspanak",
      "ispanak",
      "Łódź",
      "Lodz",
      "Ødegaard",
      "Odense",
      "Aarhus",
      "aabenraa",
      "Ærø",
      "Åse",
      "Zürich",
      "zebra",
      "äpple",
      "a\u0308pple",
      "ångström",
      "öl",
      "ol",
      "Ölbaum",
      "o",
      "Ö",
      "中国",
      "中国好声音",
      "中国好声音第1期",
      "中国好声音第2期",
      "张玮独家专访",
      "東京",
      "とうきょう",
      "トウキョウ",
      "서울",
      "Αθήνα",
      "αθηνα",
      "Москва",
      "москва",
      "ёлка",
      "елка",
      "a1",
      "a12",
      "a2",
      "a-b",
      "ab-",
      "ab\u200Bc",
      "x_y",
      "50%",
      "😀smile",
      "\u00ADhidden",
  };
  return words;
}

const std::vector<std::string>& AllCollations() {
  static const std::vector<std::string> names = {"binary",
                                                 "nocase",
                                                 "search",
                                                 "icu:und",
                                                 "icu:und-u-ks-level1",
                                                 "icu:und-u-ks-level2",
                                                 "icu:de",
                                                 "icu:sv",
                                                 "icu:cs",
                                                 "icu:da",
                                                 "icu:tr",
                                                 "icu:zh",
                                                 "icu:ja",
                                                 "icu:en-u-kn-true"};
  return names;
}

TEST(Utf8Test, AcceptsWellFormedText) {
  for (std::string s :
       {std::string(""), std::string("plain ascii"), std::string("Straße"),
        std::string("中国好声音"), std::string("😀"), std::string("\uFFFF"),
        std::string("\xF4\x8F\xBF\xBF"), std::string("nul\0inside", 10)}) {
    EXPECT_TRUE(ValidateUtf8(s).ok()) << s;
  }
}

TEST(Utf8Test, RejectsMalformedTextNamingTheByte) {
  struct Case {
    std::string bytes;
    std::string message;
  };
  const Case cases[] = {
      {"abc\x80", "invalid UTF-8 at byte 3"},           // lone continuation
      {"\xBF", "invalid UTF-8 at byte 0"},              // lone continuation
      {"x\xC0\xAF", "invalid UTF-8 at byte 1"},         // overlong '/'
      {"\xC1\xBF", "invalid UTF-8 at byte 0"},          // overlong
      {"\xE0\x80\xAF", "invalid UTF-8 at byte 0"},      // overlong, 3 bytes
      {"\xF0\x80\x80\xAF", "invalid UTF-8 at byte 0"},  // overlong, 4 bytes
      {"ok\xED\xA0\x80", "invalid UTF-8 at byte 2"},    // surrogate U+D800
      {"\xED\xBF\xBF", "invalid UTF-8 at byte 0"},      // surrogate U+DFFF
      {"\xF4\x90\x80\x80", "invalid UTF-8 at byte 0"},  // U+110000
      {"\xF5\x80\x80\x80", "invalid UTF-8 at byte 0"},  // beyond F4
      {"\xFF", "invalid UTF-8 at byte 0"},
      {"中\xE4\xB8", "invalid UTF-8 at byte 3"},    // truncated
      {"\xF0\x9F\x98", "invalid UTF-8 at byte 0"},  // truncated emoji
      {"\xC3(", "invalid UTF-8 at byte 0"},         // bad continuation
  };
  for (const Case& c : cases) {
    Status s = ValidateUtf8(c.bytes);
    EXPECT_EQ(s.code(), Status::Code::kTypeError) << c.message;
    EXPECT_EQ(s.message(), c.message);
  }
}

TEST(CollationTest, IcuVersionIsTheLinkedLibrary) {
  EXPECT_EQ(IcuVersion(), U_ICU_VERSION);
}

TEST(CollationTest, GetCanonicalizesAndCachesNames) {
  EXPECT_EQ(Get("")->name(), "binary");
  EXPECT_TRUE(Get("")->is_binary());
  EXPECT_EQ(Get("BINARY"), Get("binary"));
  EXPECT_EQ(Get("NoCase")->name(), "nocase");
  EXPECT_EQ(Get("Search")->name(), "search");
  EXPECT_EQ(Get("ICU:SV")->name(), "icu:sv");
  EXPECT_EQ(Get("icu:sv"), Get("ICU:SV"));
  EXPECT_EQ(Get("icu:de-de")->name(), "icu:de-DE");
  EXPECT_EQ(Get("icu:und-u-ks-level2")->name(), "icu:und-u-ks-level2");
  EXPECT_EQ(Get("icu:iw")->name(), "icu:he");
  EXPECT_EQ(Get("icu:iw"), Get("icu:he"));
  EXPECT_FALSE(Get("nocase")->is_binary());
}

TEST(CollationTest, GetRejectsUnknownNamesAndLocales) {
  for (std::string name :
       {"klingon", "utf8_general_ci", "icu:", "icu:xx", "icu:tlh", "icu:de_DE",
        "icu:not a tag", "icu:und-u-ks-level9", "icu:sv-u-co-nonsense"}) {
    Result<const Collation*> c = Collation::Get(name);
    ASSERT_FALSE(c.ok()) << name;
    EXPECT_EQ(c.status().code(), Status::Code::kInvalidArgument) << name;
    EXPECT_NE(c.status().message().find(name), std::string::npos)
        << c.status().message();
  }
}

TEST(CollationTest, BinaryIsCodePointOrderAndCaseSensitive) {
  const Collation* c = Get("binary");
  EXPECT_EQ(SortedByKey(c, {"b", "ä", "a", "B", "A", "中", "😀", "Z"}),
            "A < B < Z < a < b < ä < 中 < 😀");
  EXPECT_EQ(Eq(c, "Straße", "STRASSE"), "!=");
  EXPECT_EQ(Eq(c, "Café", "Cafe\u0301"), "!=");  // NFC vs NFD bytes
  EXPECT_EQ(Key(c, "Straße"), "Straße");
}

TEST(CollationTest, NocaseFoldsCaseSharpSAndLigatures) {
  const Collation* c = Get("nocase");
  EXPECT_EQ(Eq(c, "Straße", "STRASSE"), "==");
  EXPECT_EQ(Eq(c, "Straße", "strasse"), "==");
  EXPECT_EQ(Key(c, "Straße"), "strasse");
  EXPECT_EQ(Eq(c, "ﬁsh", "FISH"), "==");  // ligature by NFKC
  EXPECT_EQ(Eq(c, "Café", "CAFÉ"), "==");
  EXPECT_EQ(Eq(c, "Café", "cafe"), "!=");        // accents still count
  EXPECT_EQ(Eq(c, "Café", "Cafe\u0301"), "==");  // NFC == NFD
  EXPECT_EQ(Eq(c, "Москва", "МОСКВА"), "==");
  EXPECT_EQ(Eq(c, "Αθήνα", "ΑΘΉΝΑ"), "==");
  EXPECT_EQ(Eq(c, "ＡＢＣ", "abc"), "==");  // full-width forms
  EXPECT_EQ(SortedByKey(c, {"b", "B", "a", "A", "Straße", "STRASSE", "stra"}),
            "a = A < b = B < stra < Straße = STRASSE");
}

TEST(CollationTest, NocaseTurkishDottedCapitalIKeepsItsDot) {
  const Collation* c = Get("nocase");
  EXPECT_EQ(Key(c, "İ"), "i\u0307");  // i + combining dot above
  EXPECT_EQ(Eq(c, "İstanbul", "istanbul"), "!=");
  EXPECT_EQ(Eq(c, "Istanbul", "istanbul"), "==");
  EXPECT_EQ(Eq(c, "ıspanak", "ispanak"), "!=");  // dotless ı is its own letter
}

TEST(CollationTest, SearchAlsoIgnoresAccentsButNotBaseLetters) {
  const Collation* c = Get("search");
  EXPECT_EQ(Eq(c, "Café", "cafe"), "==");
  EXPECT_EQ(Eq(c, "Cafe\u0301", "CAFE"), "==");
  EXPECT_EQ(Eq(c, "Crème Brûlée", "creme brulee"), "==");
  EXPECT_EQ(Eq(c, "Ö", "o"), "==");
  EXPECT_EQ(Eq(c, "Zürich", "zurich"), "==");
  EXPECT_EQ(Eq(c, "Straße", "STRASSE"), "==");
  EXPECT_EQ(Eq(c, "ﬁsh", "fish"), "==");
  EXPECT_EQ(Eq(c, "İstanbul", "istanbul"), "==");  // the dot is stripped
  EXPECT_EQ(Eq(c, "ıspanak", "ispanak"), "!=");
  EXPECT_EQ(Eq(c, "Łódź", "lodz"), "!=");  // Ł is a letter, not L + mark
  EXPECT_EQ(Eq(c, "Łódź", "łodz"), "==");
  EXPECT_EQ(Eq(c, "Ødegaard", "odegaard"), "!=");
  EXPECT_EQ(Eq(c, "ёлка", "елка"), "==");
  EXPECT_EQ(Key(c, "Crème Brûlée"), "creme brulee");
}

TEST(CollationTest, SwedishSortsAeringAndUmlautsAfterZ) {
  EXPECT_EQ(SortedByKey(Get("icu:sv"), {"ö", "å", "z", "ä", "a", "o"}),
            "a < o < z < å < ä < ö");
  EXPECT_EQ(SortedByKey(Get("icu:de"), {"ö", "å", "z", "ä", "a", "o"}),
            "a < å < ä < o < ö < z");
  EXPECT_EQ(SortedByKey(Get("icu:sv"), {"öl", "zebra", "äpple", "ångström"}),
            "zebra < ångström < äpple < öl");
}

TEST(CollationTest, CzechChIsALetterAfterH) {
  const Collation* cs = Get("icu:cs");
  EXPECT_EQ(SortedByKey(cs, {"ihned", "chata", "hrad", "cesta", "Čech"}),
            "cesta < Čech < hrad < chata < ihned");
  EXPECT_EQ(SortedByKey(Get("icu:de"), {"ihned", "chata", "hrad", "cesta"}),
            "cesta < chata < hrad < ihned");
  EXPECT_FALSE(Like(cs, "chata", "c%"));
  EXPECT_TRUE(Like(cs, "chata", "ch%"));
  EXPECT_TRUE(Like(cs, "cesta", "c%"));
  EXPECT_FALSE(Bounded(cs, "c", "chata"));
  EXPECT_TRUE(Bounded(cs, "ch", "chata"));
  EXPECT_TRUE(Like(Get("icu:de"), "chata", "c%"));
}

TEST(CollationTest, DanishAaSortsAsAeringAtTheEnd) {
  const Collation* da = Get("icu:da");
  EXPECT_EQ(SortedByKey(da, {"Aarhus", "Zürich", "Odense", "Ærø", "Åse"}),
            "Odense < Zürich < Ærø < Aarhus < Åse");
  EXPECT_FALSE(Like(da, "Aarhus", "a%"));
  EXPECT_FALSE(Like(da, "Aarhus", "å%"));  // aa and å differ at tertiary
  EXPECT_TRUE(Like(Get("icu:da-u-ks-level1"), "Aarhus", "å%"));
  EXPECT_TRUE(Bounded(da, "å", "Aarhus"));
  EXPECT_FALSE(Bounded(da, "a", "Aarhus"));
}

TEST(CollationTest, IcuLevel2IsCaseBlindButAccentSensitive) {
  const Collation* c = Get("icu:und-u-ks-level2");
  EXPECT_EQ(Eq(c, "a", "A"), "==");
  EXPECT_EQ(Eq(c, "Москва", "МОСКВА"), "==");
  EXPECT_EQ(Eq(c, "Café", "CAFÉ"), "==");
  EXPECT_EQ(Eq(c, "Café", "cafe"), "!=");
  EXPECT_EQ(Eq(c, "Straße", "STRASSE"), "!=");  // ß vs ss is secondary in ICU
  EXPECT_EQ(Eq(c, "Café", "Cafe\u0301"), "==");
  EXPECT_EQ(SortedByKey(c, {"b", "á", "A", "a", "B"}), "A = a < á < b = B");
  EXPECT_TRUE(Like(c, "CAFÉ au lait", "café%"));
  EXPECT_FALSE(Like(c, "CAFÉ au lait", "cafe%"));
  EXPECT_EQ(Eq(Get("icu:und"), "a", "A"), "!=");  // default is tertiary
}

TEST(CollationTest, ChinesePrefixRangeHoldsTheShowAndNotTheInterview) {
  for (const std::string& name : AllCollations()) {
    const Collation* c = Get(name);
    SCOPED_TRACE(name);
    EXPECT_TRUE(Bounded(c, "中国好声音", "中国好声音第1期"));
    EXPECT_TRUE(Bounded(c, "中国好声音", "中国好声音"));
    EXPECT_FALSE(Bounded(c, "中国好声音", "张玮独家专访"));
    EXPECT_FALSE(Bounded(c, "中国好声音", "中国"));
    EXPECT_TRUE(Like(c, "中国好声音第1期", "中国好声音%"));
    EXPECT_FALSE(Like(c, "张玮独家专访", "中国好声音%"));
    EXPECT_TRUE(Like(c, "中国好声音第1期", "%声音第_期"));
  }
}

TEST(CollationTest, LikeWildcardsEscapesAndEmptyPatterns) {
  const Collation* c = Get("binary");
  EXPECT_TRUE(Like(c, "", ""));
  EXPECT_FALSE(Like(c, "a", ""));
  EXPECT_TRUE(Like(c, "", "%"));
  EXPECT_FALSE(Like(c, "", "_"));
  EXPECT_TRUE(Like(c, "abc", "abc"));
  EXPECT_TRUE(Like(c, "abc", "a%"));
  EXPECT_TRUE(Like(c, "abc", "%c"));
  EXPECT_TRUE(Like(c, "abc", "%b%"));
  EXPECT_TRUE(Like(c, "abc", "a_c"));
  EXPECT_FALSE(Like(c, "abc", "a_"));
  EXPECT_TRUE(Like(c, "abc", "%%%"));
  EXPECT_TRUE(Like(c, "aXbXc", "%X%X%"));
  EXPECT_FALSE(Like(c, "aXbc", "%X%X%"));
  EXPECT_TRUE(Like(c, "mississippi", "%iss%ppi"));
  EXPECT_FALSE(Like(c, "abc", "ABC"));       // binary is case-sensitive
  EXPECT_TRUE(Like(c, "Straße", "Stra_e"));  // '_' is one code point
  EXPECT_TRUE(Like(c, "中国好声音", "中_好%"));
  EXPECT_TRUE(Like(c, "50%", "50\\%", U'\\'));
  EXPECT_FALSE(Like(c, "500", "50\\%", U'\\'));
  EXPECT_TRUE(Like(c, "x_y", "x\\_y", U'\\'));
  EXPECT_FALSE(Like(c, "xzy", "x\\_y", U'\\'));
  EXPECT_TRUE(Like(c, "a\\b", "a\\\\b", U'\\'));
  EXPECT_FALSE(Like(c, "abc\\", "abc\\", U'\\'));  // lone trailing escape
  EXPECT_TRUE(Like(c, "50%", "50#%", U'#'));
  EXPECT_TRUE(Like(c, "50%", "50§%", U'§'));  // multi-byte escape
  EXPECT_TRUE(Like(c, "a%", "a%%", U'%'));    // escape wins over wildcard
  EXPECT_FALSE(Like(c, "ab", "a%%", U'%'));
  EXPECT_TRUE(Like(c, "50\\x", "50\\%"));  // no escape: '\' is literal
  EXPECT_FALSE(Like(c, "50%", "50\\_"));
}

// Binary LIKE against a plain recursive matcher over code points, on
// random texts and patterns of one- to four-byte characters.
bool ReferenceLike(const std::u32string& t, size_t i, const std::u32string& p,
                   size_t j) {
  if (j == p.size()) return i == t.size();
  if (p[j] == U'%') {
    for (size_t k = i; k <= t.size(); ++k) {
      if (ReferenceLike(t, k, p, j + 1)) return true;
    }
    return false;
  }
  if (i == t.size()) return false;
  return (p[j] == U'_' || p[j] == t[i]) && ReferenceLike(t, i + 1, p, j + 1);
}

TEST(CollationTest, BinaryLikeMatchesCodePointByCodePoint) {
  const Collation* c = Get("binary");
  const std::u32string alphabet = U"ab\u00e9\u00c9\u4e2d\U0001F600";
  std::mt19937 rng(20261127);
  auto utf8 = [](const std::u32string& s) {
    std::string out;
    for (char32_t ch : s) {
      icu::UnicodeString u = icu::UnicodeString(static_cast<UChar32>(ch));
      u.toUTF8String(out);
    }
    return out;
  };
  int matches = 0;
  for (int round = 0; round < 20000; ++round) {
    std::u32string text, pattern;
    for (size_t n = rng() % 7; n > 0; --n) text += alphabet[rng() % 6];
    for (size_t n = rng() % 6; n > 0; --n) {
      const int r = rng() % 9;
      pattern += r < 2 ? U'%' : r < 4 ? U'_' : alphabet[rng() % 6];
    }
    const bool expected = ReferenceLike(text, 0, pattern, 0);
    matches += expected;
    ASSERT_EQ(Like(c, utf8(text), utf8(pattern)), expected)
        << "'" << utf8(text) << "' LIKE '" << utf8(pattern) << "'";
  }
  EXPECT_GT(matches, 1000);  // the check above was not vacuous
  // A BLOB's bytes that are not UTF-8 match themselves, in the pattern too,
  // and '_' steps over them as SQLite does (sqlite3's answers for
  // CAST(blob AS TEXT) LIKE ...): a lead byte with the continuation bytes
  // after it, any other byte alone.
  EXPECT_TRUE(Like(c,
                   "a\xff"
                   "b",
                   "a\xff"
                   "b"));
  EXPECT_TRUE(Like(c, "\x80", "%\x80"));
  EXPECT_FALSE(Like(c,
                    "a\xff"
                    "b",
                    "a\xfe%"));
  EXPECT_TRUE(Like(c,
                   "A\xff"
                   "B",
                   "A%\xff%"));
  EXPECT_TRUE(Like(c, "\x80", "_"));
  EXPECT_FALSE(Like(c, "\xa9\xa9", "_"));
  EXPECT_TRUE(Like(c, "\xa9\xa9", "__"));
  EXPECT_TRUE(Like(c, "%\xbf", "%\xbf"));
  EXPECT_FALSE(Like(c, "%\xbf", "_"));
  EXPECT_TRUE(Like(c, "%\xbf", "__"));
  EXPECT_FALSE(Like(c,
                    "\xc3"
                    "A",
                    "_"));
  EXPECT_TRUE(Like(c,
                   "\xc3"
                   "A",
                   "__"));
  EXPECT_TRUE(Like(c,
                   "x\xc3"
                   "yz",
                   "%\xc3%"));  // a lone lead byte, then %
}

TEST(CollationTest, LikeUnderNocaseAndSearchMatchesFoldedText) {
  const Collation* nocase = Get("nocase");
  EXPECT_TRUE(Like(nocase, "Straße", "STRASS%"));
  EXPECT_TRUE(Like(nocase, "Straße", "stra__e"));  // folded: s-t-r-a-s-s-e
  EXPECT_FALSE(Like(nocase, "Straße", "stra_e"));
  EXPECT_TRUE(Like(nocase, "ﬁsh and chips", "fi%"));
  EXPECT_TRUE(Like(nocase, "Café", "caf_"));
  EXPECT_TRUE(Like(nocase, "Cafe\u0301", "café"));  // NFD text, NFC pattern
  EXPECT_FALSE(Like(nocase, "Café", "cafe"));
  EXPECT_TRUE(Like(nocase, "50% OFF", "50!%%", U'!'));
  // Prefix patterns: ASCII text compared in place, other text folded whole
  // (the mark after "cafe" makes its e an é).
  EXPECT_TRUE(Like(nocase, "USER 1234", "user 12%"));
  EXPECT_TRUE(Like(nocase, "user 12", "User 12%%"));
  EXPECT_FALSE(Like(nocase, "user 1", "user 12%"));
  EXPECT_FALSE(Like(nocase, "user 1234", "usér%"));
  EXPECT_TRUE(Like(nocase, "anything", "%"));
  EXPECT_FALSE(Like(nocase, "Cafe\u0301s", "cafe%"));
  EXPECT_TRUE(Like(nocase, "Cafe\u0301s", "café%"));
  EXPECT_TRUE(Like(Get("binary"), "User 12", "User%"));
  EXPECT_FALSE(Like(Get("binary"), "User 12", "user%"));
  const Collation* search = Get("search");
  EXPECT_TRUE(Like(search, "Cafe\u0301s", "cafe%"));
  EXPECT_TRUE(Like(search, "CAFE", "cafe%"));
  EXPECT_TRUE(Like(search, "Crème Brûlée", "%BRULEE"));
  EXPECT_TRUE(Like(search, "Café", "cafe"));
  EXPECT_TRUE(Like(search, "İstanbul", "ist%"));
  EXPECT_FALSE(Like(search, "Łódź", "lod%"));
  EXPECT_TRUE(Like(search, "Łódź", "łod_"));
}

TEST(CollationTest, LikeUnderIcuComparesCollatorEqualSubstrings) {
  const Collation* de = Get("icu:de");  // tertiary
  EXPECT_TRUE(Like(de, "Café", "Caf%"));
  EXPECT_TRUE(Like(de, "Café", "%fé"));
  EXPECT_TRUE(Like(de, "Cafe\u0301", "%fé"));  // NFD text
  EXPECT_FALSE(Like(de, "Café", "cafe%"));
  EXPECT_FALSE(Like(de, "Cafe\u0301", "Cafe"));  // not before the mark
  EXPECT_TRUE(Like(de, "Café", "Caf_"));
  EXPECT_TRUE(Like(de, "Cafe\u0301", "Caf_"));  // '_': one code point of NFC
  EXPECT_TRUE(Like(de, "ab\u200Bc", "abc"));    // ignorables are ignored
  const Collation* primary = Get("icu:und-u-ks-level1");
  EXPECT_TRUE(Like(primary, "Crème Brûlée", "creme%"));
  EXPECT_TRUE(Like(primary, "Straße", "STRASSE"));
  EXPECT_TRUE(Like(primary, "Straße", "%SS_"));
  EXPECT_FALSE(Like(primary, "Straße", "stras%"));  // ß is not split
  EXPECT_TRUE(Like(primary, "x", "\u200B%"));
}

TEST(CollationTest, LikePrefixSplitsAtTheFirstWildcard) {
  std::string prefix;
  EXPECT_TRUE(LikePrefix("abc%", std::nullopt, &prefix));
  EXPECT_EQ(prefix, "abc");
  EXPECT_TRUE(LikePrefix("中国好声音%%", std::nullopt, &prefix));
  EXPECT_EQ(prefix, "中国好声音");
  EXPECT_TRUE(LikePrefix("50\\%%", U'\\', &prefix));
  EXPECT_EQ(prefix, "50%");
  EXPECT_TRUE(LikePrefix("%", std::nullopt, &prefix));
  EXPECT_EQ(prefix, "");
  EXPECT_FALSE(LikePrefix("ab_c%", std::nullopt, &prefix));
  EXPECT_EQ(prefix, "ab");
  EXPECT_FALSE(LikePrefix("abc", std::nullopt, &prefix));
  EXPECT_FALSE(LikePrefix("abc%d", std::nullopt, &prefix));
  EXPECT_FALSE(LikePrefix("", std::nullopt, &prefix));
  EXPECT_FALSE(LikePrefix("abc%\\", U'\\', &prefix));
}

TEST(CollationTest, IcuPrefixRangeHoldsTextsEndingInUFFFF) {
  // UCOL_BOUND_UPPER_LONG alone would end the range at lo + FF FF.
  for (std::string name : {"icu:und", "icu:de", "icu:zh"}) {
    EXPECT_TRUE(Bounded(Get(name), "abc", "abc\uFFFF")) << name;
    EXPECT_TRUE(Like(Get(name), "abc\uFFFF", "abc%")) << name;
  }
}

TEST(CollationTest, EmptyOrIgnorablePrefixIsUnbounded) {
  for (const std::string& name : AllCollations()) {
    std::string lo = "x", hi = "x";
    Get(name)->PrefixBounds("", &lo, &hi);
    EXPECT_EQ(lo, "") << name;
    EXPECT_EQ(hi, "") << name;
  }
  std::string lo, hi;
  Get("icu:de")->PrefixBounds("\u200B", &lo, &hi);
  EXPECT_EQ(hi, "");
  Get("nocase")->PrefixBounds("\u00AD", &lo, &hi);  // soft hyphen folds away
  EXPECT_EQ(hi, "");
}

TEST(CollationTest, SortingByKeyBytesEqualsSortingWithCompare) {
  for (const std::string& name : AllCollations()) {
    const Collation* c = Get(name);
    EXPECT_EQ(SortedByKey(c, Words()), SortedByCompare(c, Words())) << name;
    for (const std::string& a : Words()) {
      for (const std::string& b : Words()) {
        const int by_compare = c->Compare(a, b);
        const int by_key = Key(c, a).compare(Key(c, b));
        ASSERT_EQ(by_compare < 0, by_key < 0) << name << ": " << a << " " << b;
        ASSERT_EQ(by_compare == 0, by_key == 0)
            << name << ": " << a << " " << b;
      }
    }
  }
}

// Escapes a literal so that it can sit in a LIKE pattern with escape '\'.
std::string EscapeLike(std::string_view s) {
  std::string out;
  for (char ch : s) {
    if (ch == '%' || ch == '_' || ch == '\\') out += '\\';
    out += ch;
  }
  return out;
}

// A literal run is matched by finding where its primary weights end
// (galloping, then bisecting over the cuts): every run of whole words of a
// long text is found, at its place or elsewhere, and one more letter after
// it never is.
TEST(CollationTest, LikeUnderIcuFindsRunsOfWordsInLongTexts) {
  std::mt19937 rng(20261127);
  int checks = 0;
  for (const std::string& name : AllCollations()) {
    if (name.rfind("icu:", 0) != 0) continue;
    const Collation* c = Get(name);
    std::vector<std::string> words;
    std::string text;
    for (int i = 0; i < 150; ++i) {
      const std::string& w = Words()[rng() % Words().size()];
      if (w.empty()) continue;
      words.push_back(w);
      text += w + " ";
    }
    for (int round = 0; round < 20; ++round) {
      const size_t from = rng() % words.size();
      const size_t to = std::min(words.size(), from + 1 + rng() % 40);
      std::string run;
      for (size_t i = from; i < to; ++i)
        run += (i > from ? " " : "") + words[i];
      SCOPED_TRACE(name + ": " + run);
      ASSERT_TRUE(Like(c, text, "%" + EscapeLike(run) + "%", U'\\'));
      ASSERT_TRUE(Like(c, text, "%" + EscapeLike(run) + " %", U'\\'));
      ASSERT_FALSE(Like(c, text, "%" + EscapeLike(run) + "qzx%", U'\\'));
      checks += 3;
    }
    ASSERT_TRUE(Like(c, text, EscapeLike(text), U'\\'));
    ASSERT_FALSE(Like(c, text, EscapeLike(text) + "q", U'\\'));
  }
  EXPECT_GT(checks, 100);
}

TEST(CollationTest, LikeWithoutWildcardsIsEquality) {
  for (const std::string& name : AllCollations()) {
    const Collation* c = Get(name);
    for (const std::string& a : Words()) {
      for (const std::string& b : Words()) {
        ASSERT_EQ(c->Like(a, EscapeLike(b), U'\\'), c->Compare(a, b) == 0)
            << name << ": '" << a << "' LIKE '" << b << "'";
      }
    }
  }
}

TEST(CollationTest, PrefixRangeHoldsEveryLikeMatchRandomized) {
  std::mt19937 rng(20240611);
  int matches = 0;
  for (const std::string& name : AllCollations()) {
    const Collation* c = Get(name);
    std::vector<std::string> keys;
    for (const std::string& w : Words()) keys.push_back(Key(c, w));
    for (int round = 0; round < 150; ++round) {
      // A prefix of a random word, in random case.
      icu::UnicodeString word =
          icu::UnicodeString::fromUTF8(Words()[rng() % Words().size()]);
      int32_t cut = word.moveIndex32(0, 1 + rng() % 6);
      icu::UnicodeString p(word, 0, cut);
      if (rng() % 3 == 0) p.toUpper();
      if (rng() % 3 == 0) p.toLower();
      std::string prefix;
      p.toUTF8String(prefix);
      std::string lo, hi;
      c->PrefixBounds(prefix, &lo, &hi);
      const std::string pattern = EscapeLike(prefix) + "%";
      for (size_t i = 0; i < Words().size(); ++i) {
        const bool like = c->Like(Words()[i], pattern, U'\\');
        const bool in_range = InRange(keys[i], lo, hi);
        matches += like;
        ASSERT_TRUE(!like || in_range)
            << name << ": '" << Words()[i] << "' LIKE '" << pattern
            << "' but its key is outside the prefix range";
        if (c->prefix_bounds_exact()) {
          ASSERT_EQ(like, in_range)
              << name << ": '" << Words()[i] << "' LIKE '" << pattern << "'";
        }
      }
    }
  }
  EXPECT_GT(matches, 2000);  // the check above was not vacuous
}

TEST(CollationTest, VersionsNameTheirSource) {
  EXPECT_EQ(Get("binary")->Version(), "levelql-binary-1");
  EXPECT_EQ(Get("nocase")->Version().rfind("levelql-nocase-1 unicode-", 0), 0u);
  EXPECT_EQ(Get("search")->Version().rfind("levelql-search-1 unicode-", 0), 0u);
  const std::string sv = Get("icu:sv")->Version();
  EXPECT_EQ(sv.rfind("icu-" + IcuVersion() + " collator-", 0), 0u) << sv;
  EXPECT_NE(sv, Get("icu:und")->Version());  // the tailoring is in it
}

TEST(CollationTest, SharedIcuCollationGivesTheSameKeysFromFourThreads) {
  const Collation* de = Get("icu:de");
  std::vector<std::string> expected;
  std::vector<bool> expected_like;
  for (const std::string& w : Words()) {
    expected.push_back(Key(de, w));
    expected_like.push_back(de->Like(w, "%a%", std::nullopt));
  }
  std::vector<int> mismatches(4, 0);
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&, t] {
      std::string key;
      for (int round = 0; round < 40; ++round) {
        for (size_t i = 0; i < Words().size(); ++i) {
          const size_t k = (i + t * 7) % Words().size();
          de->SortKey(Words()[k], &key);
          mismatches[t] += key != expected[k];
          mismatches[t] += (de->Compare(Words()[k], Words()[i]) < 0) !=
                           (expected[k] < expected[i]);
          mismatches[t] +=
              de->Like(Words()[k], "%a%", std::nullopt) != expected_like[k];
        }
      }
    });
  }
  for (std::thread& t : threads) t.join();
  EXPECT_EQ(mismatches, std::vector<int>(4, 0));
}

}  // namespace
}  // namespace levelql
