/** The core service's own PostgreSQL schema. */
export const SCHEMA = 'core';
