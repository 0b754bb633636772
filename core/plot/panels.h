/*
** core/plot/panels.h -- the panel-kind registry: one line per panel kind
** besides the metrics (every metric is a line panel of its own, the entry
** pn_kind_metric).  PN_KIND(ID, name) makes the kind id PN_<ID> (in this
** order after the metric ids, see plotpanel.h) and declares the entry
** pn_kind_<name> defined in one file of core/plot/ (panel.h says how).
** The order is the order of the kind ids and of the valid names in error
** messages; a new kind goes at the end.
*/
PN_KIND(LANDSCAPE, landscape)
PN_KIND(SIMPLEX, simplex)
PN_KIND(TRACE, trace)
PN_KIND(CLOUD, cloud)
PN_KIND(WORKERS, workers)
PN_KIND(MIXING, mixing)
