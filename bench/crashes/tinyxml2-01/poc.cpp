#include <tinyxml2.h>

int main() {
  tinyxml2::XMLDocument doc;
  doc.DeleteNode(nullptr);
  return 0;
}
