"""Following: where a cited file's lines went between two commits.

Takes citations and two pins; gives where each one's lines ended, step by step (`follow`).
"""
