"""A test run gets its own disk cache (dsl/diskcache.py), empty at the start and removed
at the end: the tests never read nor leave entries in the user's cache folder. The run's
processes share it (pytest-xdist's workers inherit the folder made by the process that
starts them, as several `meeple` commands share a user's cache), so a kernel or a native
module is built once per run, not once per worker. The slowest tests are marked `slow`
here (SLOW, below): `pytest -m "not slow"` is the quick tier."""
import os
import shutil
import sys
import tempfile

import pytest
import scale

_SHARED = "MEEPLE_TEST_RUN_CACHE"   # the run's cache folder, for the worker processes
_OWN = not os.path.isdir(os.environ.get(_SHARED, ""))
_CACHE = tempfile.mkdtemp(prefix="meeple-test-cache-") if _OWN else os.environ[_SHARED]
os.environ[_SHARED] = _CACHE
os.environ["MEEPLE_CACHE_DIR"] = _CACHE
os.environ.pop("MEEPLE_NO_CACHE", None)
# native modules (tests/test_native.py, docs/api.md) built unoptimized: five times faster
# to build, the same code
os.environ.setdefault("MEEPLE_NATIVE_CFLAGS", "/Od" if sys.platform == "win32" else "-O0 -g0 -w")
# kernels (tests/test_kernel.py) likewise
os.environ.setdefault("MEEPLE_KERNEL_CXXFLAGS", "-O0")
# simulate, arena, perft, test and play run in pure Python unless a test says --native (their
# default, a kernel where a C++ compiler is found, would build one for each ruleset and
# player count the tests play: 3 to 6 s of CPU each at -O0; docs/cli.md, "Native code").
# tests/test_native_default.py tests the default; MEEPLE_NO_NATIVE=0 runs them all so.
os.environ.setdefault("MEEPLE_NO_NATIVE", "1")
# The `meeple` commands the tests run in child processes read compiled bytecode, as an
# installed Meeple does (pip compiles its modules at install): where the environment sets
# PYTHONDONTWRITEBYTECODE (some CI images do), each child would compile every module it
# imports from source, about 0.4 s of CPU a command. The bytecode goes to a folder of the
# run (PYTHONPYCACHEPREFIX), shared by the workers as the cache is, never the checkout's.
_PYC_SHARED = "MEEPLE_TEST_RUN_PYC"
_PYC = tempfile.mkdtemp(prefix="meeple-test-pyc-") if _OWN else os.environ[_PYC_SHARED]
os.environ[_PYC_SHARED] = _PYC
if os.environ.pop("PYTHONDONTWRITEBYTECODE", None) is not None:
    os.environ.setdefault("PYTHONPYCACHEPREFIX", _PYC)


def pytest_unconfigure(config):
    if _OWN:   # (the process that made it: it ends after its workers)
        shutil.rmtree(_CACHE, ignore_errors=True)
        shutil.rmtree(_PYC, ignore_errors=True)


# The quick tier, `python3 -m pytest -m "not slow"` (README, "Contributing"): the tests
# named here are marked slow, in one place, by file and name (a parametrized test with
# all its cases). They were the slowest of `--durations` runs on 2 cores (each above
# about 1.5 s of a quiet machine, together about 90 % of the suite's time); every area
# keeps cheaper tests in the quick tier (tests/test_quick_tier.py checks both). CI runs
# everything, in the short form (SAMPLE, below). The install tests (a minute, and the
# package index) are slow as a whole.
SLOW_FILES = {"test_install.py"}
SLOW = {
    # (lockstep, budget and compile tests of 2026-11-30: each file's text check stays quick)
    "test_kernel_full_lines.py": (
        "test_full_lines_play_as_python",
        "test_the_work_counted_is_python_s_to_the_last_unit",
        "test_tic_tac_toe_s_wins_by_full_lines_play_as_python",
    ),
    "test_kernel_occupancy.py": (
        "test_occupied_walks_keep_python_s_state_after_every_move",
        "test_the_work_counted_is_python_s_to_the_last_unit",
        "test_the_calls_counted_are_python_s_to_the_last_unit",
    ),
    "test_kernel_related_cells.py": (
        "test_chess_finds_its_attackers_by_the_bits",
        "test_related_walks_keep_python_s_state_after_every_move",
        "test_the_work_counted_is_python_s_to_the_last_unit",
        "test_the_calls_counted_are_python_s_to_the_last_unit",
    ),
    "test_kernel_empty_cells.py": (
        "test_chess_writes_its_position_so",
        "test_the_lists_are_python_s_after_every_move",
        "test_the_work_counted_is_python_s_to_the_last_unit",
    ),
    "test_kernel_text_keys.py": (
        "test_the_keys_count_the_work_of_the_texts_as_python",
        "test_names_joined_of_parts_of_known_sizes_are_keyed_as_python_counts_them",
    ),
    # (lockstep and budget tests of 2026-12-01: each file's text checks stay quick)
    "test_kernel_tops.py": (
        "test_the_work_counted_is_python_s_to_the_last_unit",
        "test_top_walks_keep_python_s_state_after_every_move",
        "test_games_by_their_tops_play_as_python",
        "test_a_bundled_variant_by_its_tops_plays_as_python",
    ),
    "test_kernel_first_filled.py": (
        "test_a_list_made_once_gives_python_s_games_states_and_work",
    ),
    "test_kernel_ray_folds.py": (
        "test_folds_in_line_give_python_s_games_and_work",
    ),
    "test_lang_tuples.py": (   # (every test that builds the tuples' kernel)
        "test_the_kernel_plays_tuples_as_python",
        "test_a_kernel_resumes_a_frame_that_holds_a_tuple",
        "test_a_tuple_among_moves_without_an_object_is_played_by_the_kernel",
    ),
    "test_kernel_branch_loops.py": (
        "test_branches_walked_in_place_give_python_s_games_and_work",
    ),
    "test_recursive_errors.py": (
        "test_an_error_is_in_the_innermost_function_with_a_kernel",
        "test_an_error_is_in_the_innermost_function_with_the_cython_path",
    ),
    "test_inlined_errors.py": (
        "test_an_error_in_a_function_is_located_in_it_by_a_kernel",
        "test_an_error_in_a_function_is_located_in_it_by_the_cython_path",
    ),
    "test_kernel_append_one.py": (
        "test_the_work_counted_is_python_s_to_the_last_unit",
        "test_its_games_are_python_s_the_lists_held_elsewhere_unchanged",
    ),
    "test_lang_list_elements.py": (
        "test_the_kernel_counts_the_work_and_calls_the_reference_counts_in_nim",
        "test_the_kernel_plays_nim_as_python",
    ),
    "test_kernel_around.py": (
        "test_random_games_agree_with_the_reference",
        "test_playouts_are_the_reference_s",
    ),
    "test_kernel_blake2s.py": (
        "test_the_generators_of_a_run_are_python_s_bot_seeds",
    ),
    "test_kernel_list_hash.py": (
        "test_counts_of_values_equal_to_one_value_of_every_kind_are_the_reference_s",
    ),
    "test_statement_forms.py": (
        "test_the_kernel_plays_every_statement_form_and_builtin_as_python",
    ),
    "test_static_filters.py": (
        "test_two_relations_joined_in_a_loop_are_read_from_a_table",
    ),
    "test_kernel_layout.py": (
        "test_a_loop_index_is_kept_in_4_bytes_and_chance_fields_only_where_a_statement_draws",
    ),
    "test_lang_const.py": (
        "test_a_kernel_reads_the_consts_as_python",
    ),
    "test_test_limits.py": (
        "test_meeple_test_names_the_games_a_limit_cut_short",
    ),
    "test_kernel_ranges.py": (
        "test_the_work_of_a_range_kept_is_counted_as_python_counts_it",
    ),
    "test_kernel_unread_lets.py": (
        "test_a_list_left_unmade_fails_for_want_of_work_as_in_python",
        "test_each_list_left_unmade_takes_its_own_twins_work",
    ),
    "test_kernel_filtered_calls.py": (
        "test_the_work_counted_is_python_s_to_the_last_unit",
    ),
    "test_kernel_constant_joins.py": (
        "test_the_work_counted_is_python_s_to_the_last_unit",
    ),
    "test_kernel_ranged_calls.py": (
        "test_the_work_counted_is_python_s_to_the_last_unit",
    ),
    "test_kernel_filter_loops.py": (
        "test_filters_walked_in_place_give_python_s_games_and_work",
    ),
    "test_kernel_list_join.py": (
        "test_the_work_counted_is_python_s_to_the_last_unit",
    ),
    "test_kernel_joined_texts.py": (
        "test_the_work_counted_is_python_s_to_the_last_unit",
    ),
    "test_kernel_early_counts.py": (
        "test_the_work_counted_is_python_s",
    ),
    "test_kernel_charges.py": (
        "test_games_of_such_ranges_stay_python_s_after_every_move",
        "test_the_work_counted_is_python_s",
    ),
    "test_lang_verbs.py": (
        "test_the_kernel_plays_verbs_demo_as_python_and_counts_the_same_work",
    ),
    "test_payoffs.py": (
        "test_the_utility_is_what_the_declaration_proves",
    ),
    "test_aliases.py": (
        "test_a_ruleset_with_aliases_is_played_by_its_kernel_and_typed_in_python",
    ),
    "test_kernel_cells.py": (
        "test_the_work_counted_is_python_s_to_the_last_unit",
    ),
    "test_lang_verbs_when.py": (
        "test_the_kernel_plays_the_verbs_offered_as_python",
    ),
    "test_kernel_products.py": (
        "test_options_kept_as_a_product_play_as_python_move_by_move",
        "test_options_kept_as_a_product_give_python_s_playouts",
        "test_a_state_loaded_at_such_a_decision_reads_its_options_whole",
    ),
    "test_kernel_ordered.py": (
        "test_options_in_order_or_not_play_as_python",
        "test_moves_of_cells_in_order_or_not_play_as_python",
        "test_a_name_that_hides_an_enum_is_no_list_in_order",
        "test_a_pure_part_of_a_list_s_elements_is_read_from_a_row_made_once",
    ),
    "test_kernel_lists.py": (
        "test_lists_made_at_their_size_play_as_python",
    ),
    "test_kernel_components.py": (
        "test_a_stone_that_joins_a_kept_group_reads_it_rather_than_walking_it_again",
        "test_random_games_check_by_the_points_noted_as_the_reference_plays",
    ),
    "test_kernel_lent.py": ("test_lent_lists_give_python_s_games_and_work",),
    "test_kernel_in_place.py": (
        "test_groups_measured_in_place_play_as_the_reference",
        "test_go_games_measured_in_place_are_the_references",
    ),
    "test_kernel_tally.py": ("test_tallied_work_gives_python_s_games_and_work",),
    "test_kernel_walk_views.py": (
        "test_walks_passed_whole_give_python_s_games_and_work",
        "test_rays_at_the_edges_give_python_s_games_and_work",
    ),
    "test_kernel_loops.py": (
        "test_the_work_counted_is_python_s_to_the_last_unit",
        "test_loops_in_place_give_python_s_games_and_work",
    ),
    "test_kernel_called_again.py": (
        "test_a_value_kept_for_a_call_again_gives_python_s_games_and_work",
    ),
    "test_kernel_joined_lists.py": (
        "test_their_games_are_python_s",
        "test_the_work_counted_is_python_s_to_the_last_unit",
    ),
    "test_kernel_emptiness.py": (
        "test_emptiness_counted_in_place_gives_python_s_games_and_work",
    ),
    "test_kernel_ray_walks.py": (
        "test_walks_in_line_and_loops_written_out_give_python_s_games_and_work",
    ),
    "test_kernel_list_handle.py": (
        "test_a_short_list_is_kept_in_its_handle_and_behaves_as_the_same_list_in_a_header",
    ),
    "test_kernel_payoffs.py": (
        "test_a_sum_other_than_the_declared_one_is_the_reference_s_rule_error",
        "test_a_kernel_ends_a_payoff_game_with_python_s_result",
    ),
    "test_kernel_nested_beside_verbs.py": (
        "test_the_kernel_plays_lists_and_tuples_beside_verbs_as_python",
    ),
    "test_kernel_walks.py": (
        "test_distinct_ids_past_a_few_are_python_s",
        "test_long_walks_and_walks_inside_a_walk_s_condition_are_python_s",
    ),
    "test_private_options.py": (
        "test_the_dynamic_leak_check_agrees_with_the_static_one",
    ),
    "test_loop_ranges.py": (
        "test_such_games_stay_python_s",
    ),
    "test_playouts.py": (
        "test_simulate_in_compact_batches_says_what_it_said_a_dict_per_game",
    ),
    "test_web.py": (
        "test_seat_2_is_never_shown_seat_1s_cards_in_a_whole_game",
        "test_a_killed_server_comes_back_with_every_acknowledged_move",
    ),
    "test_web_postgres.py": (
        "test_two_servers_share_tables_and_moves",
    ),
    "test_web_browser.py": (   # (the quick tier keeps the other browser tests)
        "test_two_seats_play_a_whole_game_of_hearts_in_two_browsers",
        "test_a_board_is_drawn_and_a_cell_picks_its_moves",
        "test_the_lobby_starts_a_table_whose_link_plays",
        "test_a_seat_passes_its_three_cards_in_a_row_while_the_other_has_not_chosen",
        "test_on_a_phone_the_board_comes_before_the_list_of_moves",
    ),
    "test_api_doc.py": (
        "test_api_example_runs",
    ),
    "test_apply_cycle.py": (
        "test_a_game_resumed_from_its_json_state_at_any_decision_goes_on_the_same_way",
        "test_moves_play_exactly_as_on_the_straightforward_path",
    ),
    "test_arena.py": (
        "test_ctrl_c_stops_the_workers_and_exits_130",
        "test_ctrl_c_while_the_workers_start_exits_130_at_once",
        "test_meeple_test_gives_the_same_games_whatever_jobs",
        "test_meeple_test_reports_the_first_failing_shard_whatever_jobs",
        "test_results_come_back_in_task_order_whatever_finishes_first",
        "test_the_workers_end_when_meeple_is_killed",
    ),
    "test_backgammon_openspiel.py": (
        "test_random_games_agree_with_openspiel",
    ),
    "test_bots_engines.py": (
        "test_every_bot_plays_every_bundled_ruleset_in_python",
        "test_on_the_kernel_every_bot_chooses_as_in_python_and_the_game_answers_as_python_s",
    ),
    "test_bound.py": (
        "test_or_endless_stops_a_game_at_its_bound_and_counts_it",
    ),
    "test_brotherhood_random.py": (
        "test_flags_are_captured_in_fighting_games",
        "test_random_games",
    ),
    "test_brotherhood_rules.py": (
        "test_every_variant_alone_and_all_together_play_for_every_player_count",
    ),
    "test_budgets.py": (
        "test_the_cli_takes_budgets",
        "test_too_many_cells_are_refused_at_load",
    ),
    "test_cache.py": (
        "test_a_bad_entry_is_ignored_and_rebuilt",
        "test_a_ruleset_from_the_cache_plays_exactly_like_a_fresh_one",
    ),
    "test_chance.py": (
        "test_meeple_test_finds_a_private_die_that_leaks_into_a_public_variable",
    ),
    "test_check.py": (
        "test_bundled_rulesets_check_clean_with_every_overlay",
    ),
    "test_cherokee_random.py": (
        "test_random_games",
        "test_random_games_in_the_other_locales",
    ),
    "test_cherokee_reference.py": (
        "test_interpreter_matches_hand_written_engine",
    ),
    "test_chess_perft.py": (
        "test_perft_from_the_start_at_depth_4_is_197281",
    ),
    "test_chess_rules.py": (
        "test_random_games_agree_with_openspiel_chess",
    ),
    "test_clans_and_glory_random.py": (
        "test_face_down_placements_happen_in_random_games",
        "test_random_games",
        "test_random_games_with_a_chosen_first_player_and_both_variants",
        "test_random_games_with_two_single_cells_on_each_end_board",
        "test_single_cells_are_played_in_random_games",
    ),
    "test_classics_openspiel.py": (
        "test_a_classic_game_plays_the_same_in_its_kernel",
    ),
    "test_cli.py": (
        "test_bots_receive_the_view_and_the_notations_only",
        "test_hot_seat_never_shows_the_other_hand",
        "test_list_shows_bundled_rulesets",
        "test_meeple_test_exit_codes_and_narrowing",
        "test_meeple_test_samples_of_the_docs",
        "test_replay_shows_moves_board_and_result",
        "test_simulate_prints_wins_per_seat",
        "test_simulate_variant_and_same_seed_same_results",
    ),
    "test_cli_conventions.py": (
        "test_a_later_command_line_has_its_colour_back",
        "test_json_command_lines_give_one_valid_document_or_a_usage_error",
        "test_list_is_a_table_when_it_fits",
        "test_list_json",
        "test_list_never_cuts_a_name",
        "test_no_color_and_NO_COLOR_leave_no_escape_on_a_terminal",
        "test_progress_of_test_and_replay",
        "test_progress_only_on_a_terminal",
        "test_replay_json_shows_what_the_text_shows",
        "test_simulate_json",
        "test_simulate_json_of_a_failing_game",
        "test_test_json_of_a_failure",
        "test_test_json_when_every_check_holds",
        "test_validate_json_of_a_clean_ruleset",
        "test_validate_json_with_errors_gives_every_diagnostic",
    ),
    "test_compat.py": (
        "test_a_ruleset_shipped_before_loads_and_plays",
    ),
    "test_components.py": (
        "test_a_component_found_again_counts_the_same_work",
    ),
    "test_default_players.py": (
        "test_pettingzoo_starts_from_the_usual_count",
        "test_the_cli_plays_the_usual_count",
    ),
    "test_docs.py": (
        "test_complete_ruleset_blocks_pass_the_checks_of_meeple_test",
        "test_fragments_check_and_run_in_the_examples_ruleset",
        "test_python_blocks_run",
        "test_the_cherokee_setup_deals_the_clans_in_a_procedure",
    ),
    "test_docs_claims.py": (
        "test_the_sample_failure_of_meeple_test",
        "test_the_samples_of_a_game_that_may_not_end",
    ),
    "test_docs_links.py": (
        "test_everything_a_doc_refers_to_is_in_the_repository",
    ),
    "test_evaluate.py": (
        "test_a_budget_runs_out_walked_where_and_as_it_runs_out_compiled",
        "test_an_argument_a_function_never_uses_is_evaluated_by_a_kernel",
        "test_the_walk_gives_every_value_budget_and_error_the_compiled_code_gives",
        "test_whole_games_walked_play_as_the_fast_engine_plays_them",
    ),
    "test_fast_code_locals.py": (
        "test_lists_joined_after_a_loop_are_counted_in_place",
    ),
    "test_fast_paths.py": (
        "test_fast_code_plays_exactly_like_the_straightforward_code",
        "test_loops_written_out_count_the_work_budget",
    ),
    "test_fused_statements.py": (
        "test_a_budget_of_steps_runs_out_inside_a_fused_run_at_the_same_statement",
        "test_a_loop_that_moves_its_items_runs_out_of_steps_where_the_instructions_do",
    ),
    "test_fuzz_cli.py": (
        "test_any_command_line_ends_with_a_documented_exit_code",
    ),
    "test_fuzz_fast_paths.py": (
        "test_mutated_rulesets_play_the_same_with_and_without_the_fast_paths",
    ),
    "test_fuzz_rulesets.py": (
        "test_mutated_rulesets_fail_only_with_diagnostics_or_rule_errors",
    ),
    "test_go_openspiel.py": (
        "test_random_games_agree_with_openspiel",
    ),
    "test_grammar_tables.py": (
        "test_the_shipped_tables_parse_like_fresh_ones",
    ),
    "test_hearts_openspiel.py": (
        "test_random_deals_agree_with_openspiel_at_every_decision",
    ),
    "test_hearts_rules.py": (
        "test_hidden_hands_and_passes_never_leak",
    ),
    "test_i18n.py": (
        "test_a_game_with_a_locale_prints_no_english",
        "test_every_locale_names_every_zone_board_and_variable_the_screen_shows",
        "test_simulate_speaks_the_locale_too",
        "test_the_catalogs_cover_the_bundled_locales_languages",
    ),
    "test_imports.py": (
        "test_each_module_of_the_language_and_the_interpreter_imports_alone",
    ),
    "test_journal.py": (
        "test_a_signal_saves_the_record_of_the_moves_made",
        "test_kill_9_leaves_a_journal_that_replays_and_resumes",
    ),
    "test_kernel.py": (
        "test_a_resumed_game_and_a_copy_of_a_python_game_are_played_by_the_kernel",
        "test_a_kernel_game_answers_as_the_python_game",
        "test_a_kernel_game_plays_to_the_same_result_and_its_undo_limit_holds",
        "test_a_kernel_is_built_once_kept_in_the_cache_and_built_again_when_damaged",
        "test_a_kernel_keeps_the_state_python_has_after_every_move",
        "test_a_move_by_its_notation_or_out_of_range_is_python_s",
        "test_a_rule_error_after_kernel_moves_is_python_s",
        "test_a_ruleset_the_kernel_does_not_cover_says_what_and_runs_in_python",
        "test_every_ruleset_of_the_language_reference_plays_the_same_in_its_kernel",
        "test_items_nobody_sees_traded_between_places_change_nothing_the_kernel_tells_a_seat",
        "test_kernels_can_be_turned_off_and_a_failed_build_says_why_once",
        "test_mutated_rulesets_play_the_same_in_their_kernel_and_in_python",
        "test_options_a_seat_may_not_know_are_ordered_and_written_by_their_place",
        "test_perft_counts_the_same_in_the_kernel",
        "test_search_bots_choose_the_same_moves_on_a_kernel_game",
        "test_simulate_natively_plays_the_same_games",
        "test_texts_and_numbers_of_any_kind_come_through_the_kernel_unchanged",
        "test_the_kernel_takes_over_a_python_game_where_it_stands",
        "test_the_steps_and_work_of_a_move_are_counted_as_in_python",
        "test_without_a_compiler_the_games_run_in_python_saying_so",
    ),
    "test_kernel_pch.py": (
        "test_the_precompiled_runtime_is_made_once_and_a_damaged_or_foreign_one_made_again",
    ),
    "test_kernel_pgo.py": (
        "test_a_guided_kernel_plays_the_same_games_and_perfts_as_python",
    ),
    "test_kernel_quick.py": (
        "test_a_first_kernel_is_the_quick_one_then_the_optimised_one_plays_the_same",
    ),
    "test_kernel_texts.py": (
        "test_a_hostile_kernel_reads_and_writes_only_its_own_memory",
        "test_any_names_become_distinct_identifiers",
        "test_hostile_names_and_texts_play_the_same_in_their_kernel_and_in_python",
    ),
    "test_lang_returns_cells.py": (
        "test_a_ruleset_with_returns_and_hidden_hands_passes_meeple_test",
    ),
    "test_leak_kinds.py": (
        "test_the_default_settings_catch_a_leak_of_each_kind_of_secret",
    ),
    "test_leaks.py": (
        "test_a_ruleset_that_keeps_its_secrets_passes_and_is_probed",
        "test_meeple_test_reports_each_kind_of_leak",
    ),
    "test_lsp.py": (
        "test_a_hostile_client_gets_errors_and_answers_again",
    ),
    "test_meeple_test.py": (
        "test_bundled_rulesets_hold_their_invariants",
        "test_meeple_test_finds_and_shrinks_each_broken_ruleset",
        "test_the_pytest_entry_point_passes_and_fails",
        "test_the_rare_break_is_rare_so_shrinking_matters",
    ),
    "test_move_paths.py": (
        "test_search_bots_choose_the_same_with_the_fast_paths",
        "test_simulated_games_are_the_same_with_the_fast_paths",
        "test_the_fast_paths_play_bundled_games_exactly_as_the_straightforward_ones",
    ),
    "test_native.py": (
        "test_recursion_as_deep_as_the_largest_depth_budget_runs_natively",
        "test_a_build_that_fails_says_why_once_and_the_games_run_in_python",
        "test_a_module_is_built_once_kept_in_the_cache_and_built_again_when_damaged",
        "test_a_rule_error_reads_the_same_natively",
        "test_a_work_budget_larger_than_a_c_integer_plays_the_same",
        "test_native_code_plays_exactly_like_python",
        "test_simulate_native_plays_the_same_games",
    ),
    "test_openspiel_game.py": (
        "test_cfr_converges_on_kuhn_poker_to_its_value",
    ),
    "test_overlays.py": (
        "test_bundled_rulesets_with_every_overlay_compile",
    ),
    "test_pettingzoo.py": (
        "test_every_bundled_ruleset_passes_pettingzoo_api_and_seed_tests",
    ),
    "test_properties.py": (
        "test_a_locale_of_texts_only_plays_as_its_ruleset",
        "test_random_games",
        "test_random_games_in_a_locale_of_texts_only",
    ),
    "test_ray.py": (   # (every test that starts a local cluster: none starts in the quick tier)
        "test_a_ray_that_cannot_start_is_one_line_and_exit_1",
        "test_ray_gives_the_same_numbers_as_the_local_run",
        "test_a_worker_killed_mid_run_leaves_stdout_to_the_json_document",
        "test_a_worker_that_always_dies_is_an_error_and_stdout_only_its_document",
    ),
    "test_records.py": (
        "test_simulate_saves_records_that_replay",
    ),
    "test_report.py": (
        "test_every_text_from_the_ruleset_is_escaped",
        "test_matplotlib_is_loaded_only_for_a_report_and_never_opens_a_window",
        "test_the_report_holds_the_figures_of_json",
        "test_the_report_is_the_same_for_the_same_seed",
        "test_the_report_replaces_a_file_whole_or_leaves_it",
    ),
    "test_results.py": (
        "test_simulate_counts_draws_as_draws",
    ),
    "test_rulebook.py": (
        "test_every_rule_of_every_bundled_ruleset_is_in_its_rulebook",
    ),
    "test_rulebook_grammar.py": (   # (each locale of each bundled game with each variant)
        "test_every_seed_and_classic_locale_names_what_players_see",
    ),
    "test_rulebook_prose.py": (
        "test_brotherhood_of_nine_tells_every_variant_in_the_words_of_each_locale",
        "test_the_seed_games_have_prose_for_every_rule_in_every_locale",
    ),
    "test_schema.py": (
        "test_bundled_file_ir_validates",
    ),
    "test_screens.py": (
        "test_play_takes_a_layout_and_bots_play_to_the_end",
        "test_screens_fit_other_sizes_too",
        "test_turn_screens_fit_80x24",
    ),
    "test_site.py": (
        "test_every_page_is_built",
        "test_meeple_code_is_highlighted",
    ),
    "test_states.py": (
        "test_mutated_states_load_and_play_or_are_refused",
    ),
    "test_trusted_ir.py": (
        "test_the_parsers_ir_is_the_validated_ir",
        "test_walk_visits_every_node_in_order",
    ),
    "test_undo.py": (
        "test_undo_takes_back_every_kind_of_write",
        "test_undo_takes_back_every_move_of_random_bundled_games",
    ),
}


# The short form (tests/scale.py, the default and CI's) runs a sample of the cases of a
# parametrized slow test: its first case and every SAMPLE-th after it, in the order they
# are collected (each replays whole games of one ruleset, configuration or locale on
# code paths its other cases also take); the long form, MEEPLE_TESTS=full, runs them all,
# and so does a run that names its tests (a node id with "::", -k, --lf, --ff, --sw).
# CI thus runs the same five sixths of those cases never (every fourth until the suite
# neared CI's 15 minutes on 2 cores): run the long form before a release or after a
# change to an engine (README, Contributing). WHOLE: the slow tests
# whose cases CI runs every one of, each cheap and each its own promise (every ruleset
# ever shipped loads; every bundled file's IR is valid; every rule is in its rulebook).
SAMPLE = 6
WHOLE = {
    "test_compat.py": ("test_a_ruleset_shipped_before_loads_and_plays",),
    "test_schema.py": ("test_bundled_file_ir_validates",),
    "test_trusted_ir.py": ("test_the_parsers_ir_is_the_validated_ir",),
    "test_rulebook.py": ("test_every_rule_of_every_bundled_ruleset_is_in_its_rulebook",),
}


def _chosen(config) -> bool:
    """Whether the run names its tests: a node id, ``-k``, or pytest's last failed or
    stepwise runs (their failures are run whatever the sample)."""
    return bool(config.getoption("keyword") or any("::" in a for a in config.args)
                or config.getoption("lf", False) or config.getoption("failedfirst", False)
                or config.getoption("stepwise", False))


def _name(item) -> str:
    return getattr(item, "originalname", None) or item.name.split("[")[0]


def pytest_collection_modifyitems(config, items):
    for item in items:
        if item.path.name in SLOW_FILES or _name(item) in SLOW.get(item.path.name, ()):
            item.add_marker(pytest.mark.slow)
    if scale.FULL or _chosen(config):
        return
    seen: dict = {}
    kept, dropped = [], []
    for item in items:
        key = (item.path, _name(item))
        sampled = ("[" in item.name and item.get_closest_marker("slow") is not None
                   and key[1] not in WHOLE.get(item.path.name, ()))
        n = seen[key] = seen.get(key, -1) + 1
        (dropped if sampled and n % SAMPLE else kept).append(item)
    if dropped:
        config.hook.pytest_deselected(items=dropped)
        items[:] = kept
