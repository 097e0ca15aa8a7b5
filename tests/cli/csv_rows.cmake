# `mpiguide list --csv`: a header and one row per algorithm; GL1..GL22 and the Träff-Gropp-Thakur
# ids of the composition family each exactly once; the family rows once per collective of the family:
# split (TGT1) k = 2 and 4 for the 9 collectives it applies to and MPI_Send, blocks (TGT2) pieces of 1, 4,
# 16 and 64 KiB for the same 9 and MPI_Send, non-blocking (TGT-N1) for
# all 17 collectives,
# monotony (MON) k = 2 and 4 for bcast, the 4 whole-vector reductions and the 4 per-rank-block collectives.
# in place (TGT12) for the 15 with an in-place form (not bcast, barrier).
# datatype (TGT3, packed) for the 10 collectives that move data without an op.
# user-defined operators (TGT23) for the 6 reductions.
# point-to-point algorithms (TGT35): 30 rows over bcast, reduce, allreduce, reduce_scatter_block, scan,
# gather, scatter, allgather, alltoall and barrier. Point-to-point operations (8, a default each) and
# their guidelines (pt2pt: TGT6, TGT8-TGT11). One-sided communication (TGT-O1, TGT-O2): bcast and
# gather; TGT-O3 for send, measure-only. Reranking (TGT36, measure-only) for the 11 collectives whose
# per-rank counts are alike; the topology row (TGT37) for sendrecv. Hierarchical (TGT38) for allreduce,
# bcast, reduce, allgather, gather, scatter, barrier; lanes (LANE) for allreduce, bcast, reduce,
# allgather. Eq. 34's two relations (scatter + bcast, bcast + bcast): TGT34 twice. Every row names its
# cost model (last column). The non-blocking collectives (issue 48): 17 defaults, and 10 rows of family
# nbc that carry a blocking row's label (the non-blocking form of its relation). Persistence (PERS,
# measure-only) for all 17 collectives. The neighbourhood collectives (issue 48): 5 defaults, the
# point-to-point exchange (TGT-M4) and the Alltoallv/Alltoallw with zero counts (TGT-M3) for each;
# their non-blocking forms the same (family nbc: 5 defaults, 5 TGT-M3, 5 TGT-M4 measure-only) and
# the block forms as their v forms (GL4, GL8 once more each).
execute_process(COMMAND ${EXE} list --csv OUTPUT_VARIABLE out RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "list --csv exited with ${rc}")
endif()
string(REGEX MATCHALL "\n" lines "${out}")
list(LENGTH lines n)
if(NOT n EQUAL 329)
  message(FATAL_ERROR "expected 1 header + 328 rows (52 defaults, 50 compositions, 20 split, 40 blocks, 17 non-blocking, "
                      "18 monotony, 15 in place, 10 datatype, 6 userop, 30 p2p, 5 pt2pt, 3 rma, 11 rerank, 1 topo, "
                      "11 hier, 22 nbc, 17 persistent), got ${n} lines")
endif()
foreach(fam_n "PERS,17" "=persistent,17" "TGT1,20" "TGT2,40" "=blocks,40" "TGT-N1,17" "MON,18" "TGT12,15" "TGT3,10" "TGT23,6" "TGT35,30" "=composition,50" "TGT-M3,10" "TGT-M4,10"
        "=split,20" "=nonblocking,17" "=monotony,18" "=inplace,15" "=datatype,10" "=userop,6" "=p2p,30"
        "=pt2pt,5" "TGT6,1" "TGT8,1" "TGT9,1" "TGT10,1" "TGT11,1" "=rma,3" "=rerank,11" "TGT36,11" "=topo,1"
        "TGT37,1" "TGT38,7" "LANE,4" "=hier,11" "TGT34,2" "=nbc,22")
  string(REGEX MATCH "^(.*),([0-9]+)$" _ "${fam_n}")
  set(pat "${CMAKE_MATCH_1}")
  set(want "${CMAKE_MATCH_2}")
  if(pat MATCHES "^=")  # the family column, before the cost model (quoted where it has a comma: allgatherv(n, 1))
    string(SUBSTRING "${pat}" 1 -1 fam)
    string(REGEX MATCHALL ",${fam},([^,\"\n]+|\"[^\"\n]*\")\n" hits "${out}")
  else()
    string(REGEX MATCHALL ",${pat}," hits "${out}")
  endif()
  list(LENGTH hits k)
  if(NOT k EQUAL want)
    message(FATAL_ERROR "${pat}: ${k} rows, want ${want}")
  endif()
endforeach()
set(ids)
foreach(i RANGE 1 22)
  list(APPEND ids GL${i})
endforeach()
list(APPEND ids TGT19 TGT22 TGT31 TGT32 TGT33 TGT-R1 TGT-X1 TGT-X2 TGT-B1 TGT-B2 TGT-G1 TGT-G2 TGT-G3
     TGT-V2 TGT-A1 TGT-A2 TGT-O1 TGT-O2)
# the labels the non-blocking forms (family nbc) carry too, with the I prefix
set(nbc_ids GL1 GL4 GL5 GL8 GL9 GL12 GL17 GL18 GL22 TGT-A1)
# and the non-blocking neighbourhood collectives' block forms as their v forms
set(nbr_ids GL4 GL8)
foreach(id IN LISTS ids)
  string(REGEX MATCHALL ",${id}," hits "${out}")
  list(LENGTH hits k)
  set(want 1)
  list(FIND nbc_ids ${id} _at)
  if(_at GREATER -1)
    set(want 2)
  endif()
  list(FIND nbr_ids ${id} _at)
  if(_at GREATER -1)
    math(EXPR want "${want} + 1")
  endif()
  if(NOT k EQUAL want)
    message(FATAL_ERROR "${id} appears ${k} times")
  endif()
endforeach()
