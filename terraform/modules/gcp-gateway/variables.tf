variable "project_id" {
  description = "GCP project that hosts the gateway, its database and its secrets."
  type        = string
}

variable "region" {
  description = "Region for Cloud Run, Cloud SQL, the VPC connector and secret replicas. Frankfurt by default (closest GCP region to Türkiye; keep personal data inside the region your KVKK transfer assessment names)."
  type        = string
  default     = "europe-west3"
}

variable "name" {
  description = "Name prefix for every resource (lower-case letters, digits and hyphens, at most 16 characters)."
  type        = string
  default     = "gecit"

  validation {
    condition     = can(regex("^[a-z][a-z0-9-]{0,14}[a-z0-9]$", var.name))
    error_message = "name must be 2-16 characters of a-z, 0-9 and '-', starting with a letter."
  }
}

variable "image" {
  description = "Container image of the gateway (built from infra/Dockerfile), e.g. europe-west3-docker.pkg.dev/PROJECT/gecit/gateway:0.1.0. Prefer an immutable digest."
  type        = string
}

variable "enable_apis" {
  description = "Enable the Google APIs this module needs (Cloud Run, Cloud SQL Admin, Secret Manager, Serverless VPC Access, Service Networking, Vertex AI)."
  type        = bool
  default     = true
}

variable "network_name" {
  description = "Name of the existing VPC network (in project_id) that has the Cloud VPN / Interconnect route to the on-prem GPU node. Cloud SQL gets its private IP on this network."
  type        = string
}

variable "create_private_service_connection" {
  description = "Reserve a range and create the Service Networking peering Cloud SQL private IP needs. Set false when the network already has one."
  type        = bool
  default     = true
}

variable "private_service_prefix_length" {
  description = "Prefix length of the range reserved for Google-managed services (Cloud SQL) when create_private_service_connection is true."
  type        = number
  default     = 20
}

variable "connector_cidr" {
  description = "Unused /28 range in network_name for the Serverless VPC Access connector. It must not overlap on-prem ranges and must be allowed through your VPN's firewall to the GPU node."
  type        = string
  default     = "10.8.0.0/28"

  validation {
    condition     = can(cidrhost(var.connector_cidr, 0)) && endswith(var.connector_cidr, "/28")
    error_message = "connector_cidr must be a /28 CIDR block."
  }
}

variable "connector_min_instances" {
  description = "Minimum instances of the Serverless VPC Access connector (2-9)."
  type        = number
  default     = 2
}

variable "connector_max_instances" {
  description = "Maximum instances of the Serverless VPC Access connector (3-10, greater than the minimum)."
  type        = number
  default     = 3
}

variable "connector_machine_type" {
  description = "Machine type of the connector instances (f1-micro, e2-micro or e2-standard-4)."
  type        = string
  default     = "e2-micro"
}

variable "min_instances" {
  description = "Minimum Cloud Run instances kept warm (0 allows scale to zero at the cost of cold starts)."
  type        = number
  default     = 1

  validation {
    condition     = var.min_instances >= 0
    error_message = "min_instances must be 0 or more."
  }
}

variable "max_instances" {
  description = "Maximum Cloud Run instances. Keep it below what the Cloud SQL tier's connection limit allows (instances x pool size)."
  type        = number
  default     = 10
}

variable "concurrency" {
  description = "Maximum concurrent requests per instance. The gateway is async and mostly waits on backends, so it can be high; streaming requests hold a slot for their whole duration."
  type        = number
  default     = 80

  validation {
    condition     = var.concurrency >= 1 && var.concurrency <= 1000
    error_message = "concurrency must be between 1 and 1000."
  }
}

variable "cpu_always_allocated" {
  description = "Keep CPU allocated outside requests (cpu_idle = false). Recommended for streaming and for the usage ledger, which writes off the request path; billed per instance-second."
  type        = bool
  default     = true
}

variable "cpu" {
  description = "CPU limit per instance (Cloud Run syntax, e.g. \"1\", \"2\")."
  type        = string
  default     = "1"
}

variable "memory" {
  description = "Memory limit per instance (e.g. \"512Mi\", \"1Gi\")."
  type        = string
  default     = "1Gi"
}

variable "request_timeout_seconds" {
  description = "Cloud Run request timeout; bounds the longest stream (max 3600)."
  type        = number
  default     = 900

  validation {
    condition     = var.request_timeout_seconds >= 1 && var.request_timeout_seconds <= 3600
    error_message = "request_timeout_seconds must be between 1 and 3600."
  }
}

variable "ingress" {
  description = "Cloud Run ingress: INGRESS_TRAFFIC_ALL (reachable at the run.app URL; IAM and the gateway's API keys still apply), INGRESS_TRAFFIC_INTERNAL_ONLY or INGRESS_TRAFFIC_INTERNAL_LOAD_BALANCER (put your own HTTPS load balancer in front)."
  type        = string
  default     = "INGRESS_TRAFFIC_ALL"

  validation {
    condition     = contains(["INGRESS_TRAFFIC_ALL", "INGRESS_TRAFFIC_INTERNAL_ONLY", "INGRESS_TRAFFIC_INTERNAL_LOAD_BALANCER"], var.ingress)
    error_message = "ingress must be INGRESS_TRAFFIC_ALL, INGRESS_TRAFFIC_INTERNAL_ONLY or INGRESS_TRAFFIC_INTERNAL_LOAD_BALANCER."
  }
}

variable "allow_unauthenticated" {
  description = "Grant roles/run.invoker to allUsers. Off by default: callers then need a Google identity token in addition to their Geçit API key. Turn on only when the gateway's own API keys are the access control you want."
  type        = bool
  default     = false
}

variable "invoker_members" {
  description = "IAM members allowed to invoke the service when allow_unauthenticated is false (e.g. \"serviceAccount:app@PROJECT.iam.gserviceaccount.com\")."
  type        = list(string)
  default     = []

  validation {
    condition     = alltrue([for m in var.invoker_members : !contains(["allUsers", "allAuthenticatedUsers"], m)])
    error_message = "Use allow_unauthenticated instead of listing allUsers / allAuthenticatedUsers."
  }
}

variable "secret_env" {
  description = "Extra environment variables taken from existing Secret Manager secrets, as ENV_NAME => secret id (e.g. { REPLICATE_API_TOKEN = \"gecit-replicate-api-token\" }). Add the secret value with `gcloud secrets versions add`, so it never enters Terraform state."
  type        = map(string)
  default     = {}
}

variable "policy_yaml" {
  description = "Routing policy YAML. When set it is stored in Secret Manager and mounted at /etc/gecit/policy/policy.yaml (a change rolls a new revision). When null the policy packaged in the image is used."
  type        = string
  default     = null
}

variable "database_version" {
  description = "Cloud SQL PostgreSQL major version."
  type        = string
  default     = "POSTGRES_16"
}

variable "database_tier" {
  description = "Cloud SQL machine tier."
  type        = string
  default     = "db-custom-1-3840"
}

variable "database_availability_type" {
  description = "ZONAL or REGIONAL (high availability with a standby in another zone)."
  type        = string
  default     = "ZONAL"

  validation {
    condition     = contains(["ZONAL", "REGIONAL"], var.database_availability_type)
    error_message = "database_availability_type must be ZONAL or REGIONAL."
  }
}

variable "database_disk_size_gb" {
  description = "Initial Cloud SQL disk size in GB (grows automatically)."
  type        = number
  default     = 20
}

variable "deletion_protection" {
  description = "Protect the Cloud SQL instance and the Cloud Run service from deletion by Terraform or the API."
  type        = bool
  default     = true
}

variable "labels" {
  description = "Labels added to every resource that supports them."
  type        = map(string)
  default     = {}
}
