#pragma once
// Redis's glob patterns (stringmatchlen): * ? [abc] [^a-z] and \ escapes. Used by CONFIG GET (no case)
// and available to KEYS/SCAN MATCH/PSUBSCRIBE.
#include <string_view>

namespace lockcheck::mock {

bool glob_match(std::string_view pattern, std::string_view text, bool nocase = false);

}  // namespace lockcheck::mock
