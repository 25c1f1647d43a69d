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


if __name__ == "__main__":
    unittest.main()
