"""Concepts: registers/concepts.yaml, the matrix's rows. Takes the registers folder and a
read set; gives the concepts (`conceptsfile`) and the rules a schema cannot say
(`consistency`). The matrix is `views.conceptmatrix`; the command `api.comparing`.
"""
