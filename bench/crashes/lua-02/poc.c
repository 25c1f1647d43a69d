#include "lua.h"
#include "lauxlib.h"
#include <stdio.h>
#include <string.h>

int main(void) {
  static char code[8192];
  size_t n = 0;
  int i;
  lua_State *L = luaL_newstate();
  /* many compile-time constants, then a constant _ENV and a global access:
     the global's table is taken from a "register" numbered after the
     constant's variable index, far beyond the function's stack frame */
  for (i = 0; i < 190; i++)
    n += sprintf(code + n, "local k%d <const> = %d\n", i, i);
  strcpy(code + n, "local _ENV <const> = 1\nanswer = 42\n");
  if (luaL_loadstring(L, code) == LUA_OK)
    lua_pcall(L, 0, 0, 0);
  lua_close(L);
  return 0;
}
