#include "lua.h"
#include "lauxlib.h"
#include <string.h>

static char buf[4096];
static size_t len;

static int writer(lua_State *L, const void *p, size_t sz, void *ud) {
  (void)L; (void)ud;
  memcpy(buf + len, p, sz);
  len += sz;
  return 0;
}

int main(void) {
  lua_State *L = luaL_newstate();
  /* dump a chunk with one upvalue (_ENV); it ends with: count 1, string "_ENV" */
  luaL_loadstring(L, "return 1");
  lua_dump(L, writer, NULL, 0);
  lua_pop(L, 1);
  /* claim 3 upvalue names instead of 1 and append two empty (NULL) names */
  buf[len - 6] = (char)0x83;
  buf[len++] = (char)0x80;
  buf[len++] = (char)0x80;
  luaL_loadbufferx(L, buf, len, "x", "b");
  lua_close(L);
  return 0;
}
