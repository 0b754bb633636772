/*
** lua/lazympi.h -- Open MPI's predefined handles read from the library
** lua/lazympi.c loads on first use (the program is not linked with it).
** Included after <mpi.h> by the files that call MPI.
*/
#ifndef OLUA_LAZYMPI_H
#define OLUA_LAZYMPI_H

#include <mpi.h>

enum {
  OLUA_MPI_COMM_WORLD, OLUA_MPI_BYTE, OLUA_MPI_CHAR, OLUA_MPI_LONG,
  OLUA_MPI_LONG_LONG, OLUA_MPI_ERRORS_RETURN, OLUA_MPI_NHANDLES
};

/* The address of predefined object k (loading the library if needed). */
void *olua_mpi_handle (int k);

#undef MPI_COMM_WORLD
#define MPI_COMM_WORLD ((MPI_Comm)olua_mpi_handle(OLUA_MPI_COMM_WORLD))
#undef MPI_BYTE
#define MPI_BYTE ((MPI_Datatype)olua_mpi_handle(OLUA_MPI_BYTE))
#undef MPI_CHAR
#define MPI_CHAR ((MPI_Datatype)olua_mpi_handle(OLUA_MPI_CHAR))
#undef MPI_LONG
#define MPI_LONG ((MPI_Datatype)olua_mpi_handle(OLUA_MPI_LONG))
#undef MPI_LONG_LONG
#define MPI_LONG_LONG ((MPI_Datatype)olua_mpi_handle(OLUA_MPI_LONG_LONG))
#undef MPI_ERRORS_RETURN
#define MPI_ERRORS_RETURN \
  ((MPI_Errhandler)olua_mpi_handle(OLUA_MPI_ERRORS_RETURN))
#undef MPI_REQUEST_NULL               /* an address: not a constant now */

#endif
