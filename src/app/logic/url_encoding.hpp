// Percent-encoding of URL query values (no UI code): what the settings' query reader and writer use.
#pragma once

#include <string>

namespace app {

// "a+b%2Cc" -> "a b,c": '+' is a space, %XX a byte; a '%' without two hex digits stays as it is.
std::string percent_decode(const std::string& s);
// Every byte except letters, digits and - _ . ~ , becomes %XX (upper-case hex).
std::string percent_encode(const std::string& s);

}  // namespace app
