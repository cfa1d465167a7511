"""Importing. Takes hand-written register pages (`page`, `fields`); gives register files in
the house style (`yamlout`), planned against the registers folder (`plan`).
"""
