# Example: Geçit on Cloud Run in europe-west3, reaching an on-prem GPU node over the VPN routes
# of an existing VPC. Usage: docs/deployment.md ("Serverless on GCP").

module "gecit" {
  source = "../../modules/gcp-gateway"

  project_id            = var.project_id
  region                = var.region
  image                 = var.image
  network_name          = var.network_name
  min_instances         = var.min_instances
  concurrency           = var.concurrency
  cpu_always_allocated  = var.cpu_always_allocated
  allow_unauthenticated = var.allow_unauthenticated
  invoker_members       = var.invoker_members
  policy_yaml           = var.policy_file == null ? null : file(var.policy_file)

  # Provider keys are added out of band, e.g.
  #   gcloud secrets create gecit-replicate-api-token --replication-policy=user-managed \
  #     --locations=europe-west3
  #   printf %s "$REPLICATE_API_TOKEN" | gcloud secrets versions add gecit-replicate-api-token --data-file=-
  # secret_env = { REPLICATE_API_TOKEN = "gecit-replicate-api-token" }

  labels = {
    app = "gecit"
  }
}
