//===- tests/api/CollectiveResults.h - collective results vs the host -----===//
//
// The work-group and sub-group collective tests run kernels of one shape:
// each work-item writes ten results (reduce add/min/max, exclusive and
// inclusive scans add/min/max, a broadcast) and two predicates (all, any).
// Both check them against the same host computation over the work-items of
// one group or sub-group.
//
//===----------------------------------------------------------------------===//
#ifndef WEFT_TESTS_API_COLLECTIVERESULTS_H
#define WEFT_TESTS_API_COLLECTIVERESULTS_H

#include <CL/cl.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <limits>
#include <vector>

/// Checks the results of Items (the global linear ids of one group or
/// sub-group, in local linear order) in Out (ten per work-item) and Pred
/// (two per work-item) against In; Broadcast is the position in Items of
/// the broadcast's source. Stops at the first wrong value (a fatal
/// failure the caller sees with HasFatalFailure()).
template <typename Info>
void checkCollectiveResults(const Info &Ty,
                            const std::vector<typename Info::Host> &In,
                            const std::vector<typename Info::Dev> &Out,
                            const std::vector<cl_int> &Pred,
                            const std::vector<size_t> &Items,
                            size_t Broadcast) {
  using Host = typename Info::Host;
  using Limits = std::numeric_limits<Host>;
  const Host Largest =
      Limits::has_infinity ? Limits::infinity() : Limits::max();
  const Host Smallest =
      Limits::has_infinity ? -Limits::infinity() : Limits::lowest();
  Host Sum = 0, Min = Largest, Max = Smallest;
  bool All = true, Any = false;
  for (size_t G : Items) {
    Sum = Host(Sum + In[G]);
    Min = std::min(Min, In[G]);
    Max = std::max(Max, In[G]);
    All = All && In[G] > Host(0);
    Any = Any || In[G] > Host(0);
  }
  Host ESum = 0, EMin = Largest, EMax = Smallest;
  for (size_t L = 0; L < Items.size(); ++L) {
    size_t G = Items[L];
    SCOPED_TRACE(testing::Message() << "local id " << L);
    const typename Info::Dev *O = &Out[10 * G];
    ASSERT_EQ(Ty.ToHost(O[0]), Sum) << "reduce_add";
    ASSERT_EQ(Ty.ToHost(O[1]), Min) << "reduce_min";
    ASSERT_EQ(Ty.ToHost(O[2]), Max) << "reduce_max";
    ASSERT_EQ(Ty.ToHost(O[3]), ESum) << "scan_exclusive_add";
    ASSERT_EQ(Ty.ToHost(O[4]), EMin) << "scan_exclusive_min";
    ASSERT_EQ(Ty.ToHost(O[5]), EMax) << "scan_exclusive_max";
    ESum = Host(ESum + In[G]);
    EMin = std::min(EMin, In[G]);
    EMax = std::max(EMax, In[G]);
    ASSERT_EQ(Ty.ToHost(O[6]), ESum) << "scan_inclusive_add";
    ASSERT_EQ(Ty.ToHost(O[7]), EMin) << "scan_inclusive_min";
    ASSERT_EQ(Ty.ToHost(O[8]), EMax) << "scan_inclusive_max";
    ASSERT_EQ(Ty.ToHost(O[9]), In[Items[Broadcast]])
        << "broadcast from position " << Broadcast;
    ASSERT_EQ(Pred[2 * G], All ? 1 : 0) << "all";
    ASSERT_EQ(Pred[2 * G + 1], Any ? 1 : 0) << "any";
  }
}

#endif // WEFT_TESTS_API_COLLECTIVERESULTS_H
