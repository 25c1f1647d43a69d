#include "pugixml.hpp"

int main() {
  pugi::xpath_variable_set vars;
  vars.add("name", pugi::xpath_type_string);  // string variable, never assigned
  pugi::xpath_variable_set copy(vars);         // copying it duplicates a NULL string
  return copy.get("name") ? 0 : 1;
}
