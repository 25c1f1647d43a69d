"""Offline checks of bench/benchlib's pure helpers (run by CTest as
bench.benchlib): what the benchmark concludes rests on them."""
import json
import os
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from benchlib import bugs, sweep  # noqa: E402

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


def edited(name, text, edit):
    """What `edit(path)` returns and leaves in a file `name` holding `text`."""
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, name)
        with open(path, "w") as f:
            f.write(text)
        result = edit(path)
        with open(path) as f:
            return result, f.read()


class DropTestsAt(unittest.TestCase):
    def test_removes_the_test_holding_an_error_line_with_its_comment(self):
        removed, text = edited("unit_test.cpp", SUITE, lambda path: bugs.drop_tests_at(path, [11]))
        self.assertEqual(removed, 1)
        self.assertIn("TEST(unitTest, A)", text)
        self.assertNotIn("b()", text)
        self.assertNotIn("which the other version lacks", text)
        self.assertIn("TEST_F(unitTest, C) {\n  c();\n}", text)

    def test_two_errors_in_one_test_remove_it_once(self):
        removed, text = edited("unit_test.cpp", SUITE, lambda path: bugs.drop_tests_at(path, [15, 16]))
        self.assertEqual(removed, 1)
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
        removed, text = edited("unit_wrapper.c", WRAPPER, lambda path: bugs.drop_wrapper_lines(path, [6, 8, 11]))
        self.assertEqual(removed, {"mosaic_added_4"})
        self.assertNotIn("added(a0)", text)
        self.assertNotIn("g_added", text)
        self.assertIn("mosaic_kept_3", text)
        self.assertIn("memcpy(mosaic_saved_1", text)

    def test_finds_the_tests_that_call_a_removed_trampoline(self):
        text = ('extern "C" int mosaic_added_4(int);\n\nTEST(unitTest, A) {\n  a();\n}\n\n'
                'TEST(unitTest, B) {\n  EXPECT_EQ(mosaic_added_4(1), 2);\n}\n')
        lines, _ = edited("unit_test.cpp", text, lambda path: bugs.tests_calling(path, {"mosaic_added_4"}))
        self.assertEqual(lines, [8])


class Claims(unittest.TestCase):
    def test_a_distinguishing_test_claims_what_its_suite_is_named_for(self):
        self.assertEqual(bugs.claim("cJSONTest_DefectDeathTest.cJSON_SetValuestring_Crashes (generated on buggy)"),
                         "likely defect")
        self.assertEqual(bugs.claim("cJSONTest_RobustnessDeathTest.DISABLED_cJSON_Parse_Crashes"), "robustness")
        self.assertEqual(bugs.claim("cJSONTest_MisuseDeathTest.cJSON_free_Crashes"), "misuse")
        self.assertEqual(bugs.claim("cJSONTest_DeathTest.cJSON_Parse_Crashes"), "unclassed failure")
        self.assertEqual(bugs.claim("xmlparseTest.XML_StopParser_ReturnsOk (generated on buggy)"), "regression")


class Rebase(unittest.TestCase):
    def test_a_portable_suite_copied_elsewhere_points_at_the_other_version(self):
        # A suite written in <buggy>/suites/u beside the project: its
        # folders are relative to it (emit/Portable.cpp); the copy lives
        # somewhere else and builds against <fixed>.
        with tempfile.TemporaryDirectory() as d:
            buggy, fixed = os.path.join(d, "buggy"), os.path.join(d, "fixed")
            suite = os.path.join(buggy, "suites", "u")
            os.makedirs(suite)
            with open(os.path.join(suite, "CMakeLists.txt"), "w") as f:
                f.write('if(NOT DEFINED MOSAIC_PROJECT_ROOT)\n'
                        '  set(MOSAIC_PROJECT_ROOT "${CMAKE_CURRENT_SOURCE_DIR}/../..")\nendif()\n'
                        'if(NOT DEFINED MOSAIC_BUILD_DIR)\n'
                        '  set(MOSAIC_BUILD_DIR "${CMAKE_CURRENT_SOURCE_DIR}/../../build")\nendif()\n'
                        f'include_directories({buggy}/include)\n')
            with open(os.path.join(suite, "u_test.cpp"), "w") as f:
                f.write(f'#include "{buggy}/u.h"\n')
            copy = bugs._rebase(suite, os.path.join(d, "elsewhere", "copy"), buggy, fixed)
            cmake = open(os.path.join(copy, "CMakeLists.txt")).read()
            real = os.path.realpath(fixed)
            self.assertIn(f'set(MOSAIC_PROJECT_ROOT "{real}")', cmake)
            self.assertIn(f'set(MOSAIC_BUILD_DIR "{real}/build")', cmake)
            self.assertIn(f"include_directories({fixed}/include)", cmake)
            self.assertEqual(open(os.path.join(copy, "u_test.cpp")).read(), f'#include "{fixed}/u.h"\n')


class SweepRecords(unittest.TestCase):
    def test_a_reason_loses_the_names_in_it(self):
        self.assertEqual(sweep.reason_class("parameter 2 (va_list): unsupported type"), "parameter: unsupported type")
        self.assertEqual(sweep.reason_class("the destructor of field 'x' is not linked"),
                         "the destructor of field '…' is not linked")

    def test_the_summary_counts_only_units_with_a_harness(self):
        records = [{"harness": True, "targets": 4, "callable": 3, "written": 10, "compiled": 9, "passed": 8,
                    "failing": 2},
                   {"harness": False, "why": "does not compile"}]
        s = sweep.summary(records)
        self.assertEqual((s["units"], s["harness"], s["targets"], s["written"], s["compiled"]), (2, 1, 4, 10, 9))
        self.assertIsNone(s["classes"])  # a mosaic that does not classify failures

    def test_sweep_runs_an_interrupted_unit_again(self):
        # SIGTERM during verification: the suite is written, not verified
        # (tests.verified false), and its counts are not the unit's.
        unverified = {"interrupted": False, "tests": {"written": 1, "compiled": 0, "verified": False}}
        self.assertTrue(sweep.interrupted(unverified, 0))
        self.assertTrue(sweep.interrupted({"interrupted": True, "tests": {}}, 1))
        self.assertFalse(sweep.interrupted({"interrupted": False, "tests": {"written": 3, "verified": True}}, 0))
        self.assertFalse(sweep.interrupted({"interrupted": False, "tests": {"written": 0, "verified": False}}, 0))
        # A suite that does not build is mosaic's failure (exit 3): recorded.
        self.assertFalse(sweep.interrupted(unverified, 3))

    def test_a_unit_not_run_yet_is_pending_not_a_failure(self):
        with tempfile.TemporaryDirectory() as d:
            self.assertEqual(sweep.unit(None, None, None, os.path.join(d, "u"), 1, 1, report_only=True), sweep.PENDING)
            self.assertFalse(os.path.exists(os.path.join(d, "u")))  # nothing run, nothing made
        s = sweep.summary([dict(sweep.PENDING), {"harness": True, "written": 3, "compiled": 3}])
        self.assertEqual((s["units"], s["harness"], s["pending"], s["written"]), (1, 1, 1, 3))
        self.assertIn("(1 not run yet)", sweep._row("x", s))

    def test_a_unit_with_nothing_to_test_is_not_a_harness_that_failed(self):
        s = sweep.summary([{"harness": False, "why": "nothing to test: the unit defines no function"},
                           {"harness": False, "why": "the harness does not compile"}, {"harness": True}])
        self.assertEqual((s["units"], s["harness"], s["nothing"]), (2, 1, 1))
        self.assertIn("1 / 2 (+1 with nothing to test)", sweep._row("x", s))

    def test_the_summary_adds_failures_by_class(self):
        records = [{"harness": True, "failing_classes": {"defect": 1, "misuse": 5}},
                   {"harness": True, "failing_classes": {"robustness": 2, "misuse": 1}}]
        self.assertEqual(sweep.summary(records)["classes"], {"defect": 1, "robustness": 2, "misuse": 6})

    def test_a_comparison_sums_only_the_units_both_sweeps_ran(self):
        before = [{"name": "s", "units": {
            "a.c": {"harness": False, "why": "the harness does not compile"},
            "b.c": {"harness": True, "targets": 2, "callable": 1, "written": 4, "compiled": 3, "passed": 3,
                    "failing": 5, "failing_classes": None},
            "c.c": dict(sweep.PENDING)}}]
        after = [{"name": "s", "units": {
            "a.c": {"harness": True, "targets": 3, "callable": 3, "written": 2, "compiled": 2, "passed": 2,
                    "failing": 0, "failing_classes": {"misuse": 4}},
            "b.c": {"harness": True, "targets": 2, "callable": 2, "written": 4, "compiled": 4, "passed": 4,
                    "failing": 1, "failing_classes": {"defect": 1, "misuse": 2}},
            "c.c": {"harness": True, "targets": 9, "callable": 9, "written": 9, "compiled": 9, "passed": 9,
                    "failing": 9}}}]
        rows, units = sweep.comparison_lines(before, after)
        self.assertEqual(rows[2], "| s | 2 | 1 → 2 | 1 → 5 / 2 → 5 | 3 / 4 (75.0%) → 6 / 6 (100.0%) | 3 → 6 | 5 → 1 | "
                                  "— → 1 / 0 / 6 |")
        self.assertEqual(rows[-1].split(" | ")[0], "| **all**")
        self.assertEqual(units[2:], ["| s | b.c | 5 → 1 | 1 / 0 / 2 |"])

    def test_the_first_error_names_the_compilers_diagnostic(self):
        with tempfile.TemporaryDirectory() as d:
            log = os.path.join(d, "generate.log")
            with open(log, "w") as f:
                f.write("mosaic: note: x\nmosaic: error: the harness of 'u.c' does not compile\n"
                        "harness.c:3:1: error: unknown type name 'foo'\n")
            self.assertEqual(sweep.first_error(log),
                             "the harness of 'u.c' does not compile [harness.c:3:1: error: unknown type name 'foo']")



def _criteria():
    """bench/criteria.py as a module (its statistics)."""
    import importlib.util
    spec = importlib.util.spec_from_file_location("criteria", os.path.join(HERE, "criteria.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


class CriteriaStatistics(unittest.TestCase):
    def test_a12_counts_wins_and_half_ties(self):
        c = _criteria()
        self.assertEqual(c.a12([3, 4, 5], [0, 1, 2]), 1.0)
        self.assertEqual(c.a12([1, 2, 3], [1, 2, 3]), 0.5)
        self.assertAlmostEqual(c.a12([3, 4, 5], [1, 2, 3]), 17 / 18)

    def test_exact_mann_whitney_p(self):
        c = _criteria()
        # Three against three, fully apart: 2 of the 20 splits are as extreme.
        self.assertAlmostEqual(c.mann_whitney_p([3, 4, 5], [0, 1, 2]), 0.1)
        self.assertAlmostEqual(c.mann_whitney_p([1, 2, 3], [1, 2, 3]), 1.0)
        # Ties take midranks: all equal is no evidence at all.
        self.assertAlmostEqual(c.mann_whitney_p([7, 7], [7, 7]), 1.0)
        # Four against four apart: 2 of 70.
        self.assertAlmostEqual(c.mann_whitney_p([5, 6, 7, 8], [1, 2, 3, 4]), 2 / 70)


class RunAgainst(unittest.TestCase):
    def test_compares_seed_one_with_every_earlier_seed_over_units_with_a_suite_in_all(self):
        def unit(covered, seeds):
            runs = {s: {'stats': {'written': 3, 'compiled': 3, 'passed': 2},
                        'mosaic': {'branches': 10, 'branches_covered': c},
                        'union': {'branches': 10, 'branches_covered': c + 1}} for s, c in zip(seeds, covered)}
            return {'own': {'branches': 10, 'branches_covered': 5}, 'mosaic': runs}
        old = {'subjects': [{'name': 'lib', 'units': {'a.c': unit([6, 8], '12'), 'b.c': unit([1, 1], '12'),
                                                       'c.c': {'own': {'branches': 10, 'branches_covered': 0},
                                                               'mosaic': {'1': None, '2': None}}}}]}
        new = {'subjects': [{'name': 'lib', 'units': {'a.c': unit([7], '1'), 'b.c': unit([3], '1'),
                                                       'c.c': unit([9], '1')}}]}
        with tempfile.TemporaryDirectory() as d:
            paths = []
            for name, j in (('old.json', old), ('new.json', new)):
                paths.append(os.path.join(d, name))
                with open(paths[-1], 'w') as f:
                    json.dump(j, f)
            out = subprocess.run([os.path.join(HERE, 'run-against')] + paths, capture_output=True, text=True,
                                 check=True).stdout
        # c.c has no suite before: left out; a.c + b.c: 7/20 before at seed 1, 9/20 at seed 2, 10/20 now.
        self.assertIn('| lib | 2 of 3 | 50.0 | 35.0 / 45.0 | **50.0** | 55.0 | 60.0 | 6 / 6 / 4 |', out)

if __name__ == "__main__":
    unittest.main()
