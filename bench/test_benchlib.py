"""Offline checks of bench/benchlib's pure helpers (run by CTest as
bench.benchlib): what the benchmark concludes rests on them."""
import os
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from benchlib import bugs  # noqa: E402

SUITE = """#include <gtest/gtest.h>

// Covers a().
TEST(unitTest, A) {
  EXPECT_EQ(a(), 1);
}

// Covers b(), which the other version lacks.
TEST(unitTest, B) {
  EXPECT_EQ(b(), 2);
}

TEST_F(unitTest, C) {
  c();
}
"""


class DropTestsAt(unittest.TestCase):
    def test_removes_the_test_holding_an_error_line_with_its_comment(self):
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "unit_test.cpp")
            with open(path, "w") as f:
                f.write(SUITE)
            self.assertEqual(bugs.drop_tests_at(path, [11]), 1)
            text = open(path).read()
        self.assertIn("TEST(unitTest, A)", text)
        self.assertNotIn("b()", text)
        self.assertNotIn("which the other version lacks", text)
        self.assertIn("TEST_F(unitTest, C) {\n  c();\n}", text)

    def test_two_errors_in_one_test_remove_it_once(self):
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "unit_test.cpp")
            with open(path, "w") as f:
                f.write(SUITE)
            self.assertEqual(bugs.drop_tests_at(path, [15, 16]), 1)
            text = open(path).read()
        self.assertNotIn("TEST_F", text)
        self.assertIn("TEST(unitTest, B)", text)

    def test_error_lines_are_read_from_test_files_only(self):
        log = ("/s/unit_test.cpp:11:3: error: use of undeclared identifier 'b'\n"
               "/s/unit_test_2.cpp:4:1: error: x\n"
               "/s/unit_failing_test.cpp:9:9: error: y\n"
               "/s/unit_wrapper.cpp:3:1: error: z\n")
        self.assertEqual(bugs.TEST_FILE_ERROR.findall(log),
                         [("/s/unit_test.cpp", "11"), ("/s/unit_test_2.cpp", "4"), ("/s/unit_failing_test.cpp", "9")])


WRAPPER = """#include "unit.c"
__typeof__(int) mosaic_kept_3(__typeof__(int) a0) {
  return kept(a0);
}
__typeof__(int) mosaic_added_4(__typeof__(int) a0) {
  return added(a0);
}
static unsigned char mosaic_saved_0[sizeof(g_added)];
static unsigned char mosaic_saved_1[sizeof(g_kept)];
__attribute__((constructor)) static void mosaic_save_state(void) {
  memcpy(mosaic_saved_0, (const void *)&g_added, sizeof(g_added));
  memcpy(mosaic_saved_1, (const void *)&g_kept, sizeof(g_kept));
}"""


class DropWrapperLines(unittest.TestCase):
    def test_removes_the_trampoline_of_a_missing_function_and_the_lines_of_a_missing_variable(self):
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "unit_wrapper.c")
            with open(path, "w") as f:
                f.write(WRAPPER)
            self.assertEqual(bugs.drop_wrapper_lines(path, [6, 8, 11]), {"mosaic_added_4"})
            text = open(path).read()
        self.assertNotIn("added(a0)", text)
        self.assertNotIn("g_added", text)
        self.assertIn("mosaic_kept_3", text)
        self.assertIn("memcpy(mosaic_saved_1", text)

    def test_finds_the_tests_that_call_a_removed_trampoline(self):
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "unit_test.cpp")
            with open(path, "w") as f:
                f.write('extern "C" int mosaic_added_4(int);\n\nTEST(unitTest, A) {\n  a();\n}\n\n'
                        'TEST(unitTest, B) {\n  EXPECT_EQ(mosaic_added_4(1), 2);\n}\n')
            self.assertEqual(bugs.tests_calling(path, {"mosaic_added_4"}), [8])


if __name__ == "__main__":
    unittest.main()
