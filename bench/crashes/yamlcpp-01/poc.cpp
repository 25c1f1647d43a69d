#include <string>
#include <yaml-cpp/binary.h>

int main() {
  // bytes >= 0x80 are negative chars: they index the decoding table out of range
  std::string input("\xc6\xff\x9d" "m");
  std::vector<unsigned char> out = YAML::DecodeBase64(input);
  return out.empty() ? 0 : 0;
}
