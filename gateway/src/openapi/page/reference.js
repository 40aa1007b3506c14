// Starts Swagger UI on the gateway's own API document. Everything it loads comes from this origin:
// validatorUrl null keeps it from sending the document to validator.swagger.io.
window.addEventListener('load', function () {
  window.ui = SwaggerUIBundle({
    url: '/api/docs/openapi.json',
    dom_id: '#reference',
    deepLinking: true,
    validatorUrl: null,
    withCredentials: true,
    presets: [SwaggerUIBundle.presets.apis],
    layout: 'BaseLayout',
  });
});
