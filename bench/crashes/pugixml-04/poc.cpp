#include "pugixml.hpp"

int main() {
  pugi::xml_document doc;
  pugi::xml_node root = doc.append_child("root");
  pugi::xml_node chain = root.append_child("a");
  pugi::xml_node n = chain;
  for (int i = 0; i < 1000000; i++)  // a very deep chain of elements
    n = n.append_child("a");
  return root.remove_child(chain) ? 0 : 1;  // destroys the chain recursively
}
