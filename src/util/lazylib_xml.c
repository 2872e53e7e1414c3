/*
 * libxml2's functions that iotally calls (ingest/plist.c, report/junit.c),
 * loaded on first use: util/lazylib.h. A function added to those files
 * needs its line here, or the binary does not link.
 */
#include "util/lazylib.h"

#include <libxml/SAX2.h>
#include <libxml/parser.h>
#include <libxml/tree.h>
#include <libxml/xmlerror.h>
#include <libxml/xmlwriter.h>

#define IMPORT(ret, name, params, args) LAZYLIB_IMPORT(lazylib_libxml2, ret, name, params, args)
#define IMPORT_VOID(name, params, args) LAZYLIB_IMPORT_VOID(lazylib_libxml2, name, params, args)

/* Parsing (ingest/plist.c): a push parser with SAX callbacks. */
IMPORT(xmlParserCtxtPtr, xmlCreatePushParserCtxt,
       (xmlSAXHandlerPtr sax, void *user_data, const char *chunk, int size, const char *filename),
       (sax, user_data, chunk, size, filename))
IMPORT(int, xmlCtxtUseOptions, (xmlParserCtxtPtr ctxt, int options), (ctxt, options))
IMPORT(int, xmlParseChunk, (xmlParserCtxtPtr ctxt, const char *chunk, int size, int terminate),
       (ctxt, chunk, size, terminate))
IMPORT_VOID(xmlStopParser, (xmlParserCtxtPtr ctxt), (ctxt))
IMPORT_VOID(xmlFreeParserCtxt, (xmlParserCtxtPtr ctxt), (ctxt))
IMPORT_VOID(xmlFreeDoc, (xmlDocPtr cur), (cur))
IMPORT(int, xmlSAX2GetLineNumber, (void *ctx), (ctx))
IMPORT(int, xmlSAX2GetColumnNumber, (void *ctx), (ctx))
IMPORT_VOID(xmlInitParser, (void), ())
IMPORT_VOID(xmlSetGenericErrorFunc, (void *ctx, xmlGenericErrorFunc handler), (ctx, handler))

/* Writing (report/junit.c): a text writer into a memory buffer. */
IMPORT(xmlBufferPtr, xmlBufferCreate, (void), ())
IMPORT(const xmlChar *, xmlBufferContent, (const xmlBuffer *buf), (buf))
IMPORT(int, xmlBufferLength, (const xmlBuffer *buf), (buf))
IMPORT_VOID(xmlBufferFree, (xmlBufferPtr buf), (buf))
IMPORT(xmlTextWriterPtr, xmlNewTextWriterMemory, (xmlBufferPtr buf, int compression),
       (buf, compression))
IMPORT_VOID(xmlFreeTextWriter, (xmlTextWriterPtr writer), (writer))
IMPORT(int, xmlTextWriterSetIndent, (xmlTextWriterPtr writer, int indent), (writer, indent))
IMPORT(int, xmlTextWriterSetIndentString, (xmlTextWriterPtr writer, const xmlChar *str),
       (writer, str))
IMPORT(int, xmlTextWriterStartDocument,
       (xmlTextWriterPtr writer, const char *version, const char *encoding,
	const char *standalone),
       (writer, version, encoding, standalone))
IMPORT(int, xmlTextWriterEndDocument, (xmlTextWriterPtr writer), (writer))
IMPORT(int, xmlTextWriterStartElement, (xmlTextWriterPtr writer, const xmlChar *name),
       (writer, name))
IMPORT(int, xmlTextWriterEndElement, (xmlTextWriterPtr writer), (writer))
IMPORT(int, xmlTextWriterWriteAttribute,
       (xmlTextWriterPtr writer, const xmlChar *name, const xmlChar *content),
       (writer, name, content))
IMPORT(int, xmlTextWriterWriteString, (xmlTextWriterPtr writer, const xmlChar *content),
       (writer, content))
IMPORT(int, xmlTextWriterWriteElement,
       (xmlTextWriterPtr writer, const xmlChar *name, const xmlChar *content),
       (writer, name, content))
