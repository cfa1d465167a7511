"""Concepts: registers/concepts.yaml, the matrix's rows. Start here for the feature.

Takes the registers folder and a read register set; gives the concepts read with their
problems (`conceptsfile`) and the rules a schema cannot say (`consistency`). The values are
`model.concepts`; the concept x subject matrix is `views.conceptmatrix`, its text
`reporting.matrixreport`, its page cells `site.matrixcells`; the command `api.measuring`.
"""
